// English strings. Every key here exists in bn.js and mr.js too (web/test/i18n.test.js checks it).
// {name} marks a value filled in by the page. Rules texts: "# " starts a heading, "- " a list item.
export default {
'lang.name': 'English',
'app.name': 'Parlor',
'app.tagline': 'Chess, draughts and four-player chess with friends',
'nav.lobby': 'Lobby',
'nav.history': 'My games',
'nav.rules': 'Rules',
'nav.language': 'Language',
'theme.label': 'Theme',
'theme.auto': 'Automatic',
'theme.light': 'Light',
'theme.dark': 'Dark',
'sound.on': 'Sound on',
'sound.off': 'Sound off',
'presence.online': 'You appear online',
'presence.offline': 'You appear offline',
'presence.go_offline': 'Go offline',
'presence.go_online': 'Go online',
'common.close': 'Close',
'common.cancel': 'Cancel',
'common.yes': 'Yes',
'common.no': 'No',
'common.copy': 'Copy',
'common.copied': 'Copied',
'common.loading': 'Loading…',

'conn.trouble': 'Connection trouble. Trying again in {s} s…',
'conn.lost': 'Could not reconnect to the server.',
'conn.retry': 'Try again',
'conn.back': 'Connected again.',
'conn.cookies': 'Playing with others needs cookies: your browser refused the cookie that tells us who you are. Allow cookies for this site and reload the page.',
'conn.outdated': 'A new version of Parlor is out. Reload the page to keep playing.',
'conn.reload': 'Reload',
'conn.removed': 'You were away too long, so the game went on without you.',
'conn.removed_cpu': 'You were away too long: a computer player took your seat. Open the table again to take it back.',
'conn.offline_browser': 'Your device is offline. We will reconnect when it is back.',

'err.cookies_required': 'Multiplayer needs cookies.',
'err.client_outdated': 'This page is out of date. Please reload.',
'err.table_not_found': 'This table does not exist or has closed.',
'err.bad_message': 'The server did not understand the page. Please reload.',
'err.too_large': 'That message was too long.',
'err.rate_limited': 'Too fast: wait a moment and try again.',
'err.not_your_turn': 'It is not your turn.',
'err.not_seated': 'You are watching: only players at the table can move.',
'err.illegal_move': 'That move is not allowed.',
'err.stale_move': 'The position changed before your move arrived. Look again and move.',
'err.game_over': 'The game is over.',
'err.seat_taken': 'Someone else just took that seat.',
'err.table_full': 'Every seat is taken. You can still watch.',
'err.not_allowed': 'That is not possible now.',
'err.blocked': 'You cannot play with this player.',
'err.confirm_blocked': 'A player you blocked sits here.',
'err.player_offline': 'That player is offline or not taking challenges.',
'err.challenge_not_found': 'That challenge no longer exists.',
'err.name_invalid': 'A name needs 1 to 24 letters, without special characters.',
'err.chat_invalid': 'A message needs 1 to 300 characters.',
'err.bad_spec': 'These table settings are not valid.',
'err.internal': 'Something went wrong on the server. Your game is safe; try again.',
'err.unavailable': 'The server cannot save moves for a moment. Your game is safe; try again in a moment.',
'err.too_many_tables': 'You already host 10 open tables. Close one before you open another.',
'err.challenge_exists': 'You have already challenged this player. Wait for an answer.',
'err.too_many_challenges': 'You have 5 challenges waiting. Cancel one or wait for answers.',
'err.not_at_table': 'Only players and watchers at this table can chat here.',
'err.unknown': 'Something went wrong.',

'game.chess': 'Chess',
'game.draughts': 'Draughts',
'game.chess4': 'Four-player chess',
'game.draughts/english': 'Checkers (English draughts)',
'game.draughts/international': 'International draughts',
'game.draughts/russian': 'Russian draughts',
'game.draughts/pool': 'Pool checkers',
'game.variant': 'Variant',

'seat.chess.0': 'White',
'seat.chess.1': 'Black',
'seat.draughts.w': 'White',
'seat.draughts.b': 'Black',
'seat.chess4.0': 'Red',
'seat.chess4.1': 'Blue',
'seat.chess4.2': 'Yellow',
'seat.chess4.3': 'Green',
'seat.grey': 'Grey',
'seat.open': 'Free seat',
'seat.sit': 'Sit here',
'seat.stand': 'Stand up',
'seat.cpu': 'Computer ({level})',
'seat.away': 'away',
'seat.you': '(you)',
'seat.points': 'Points: {n}',
'seat.eliminated': 'out',
'seat.turn': 'to move',

'level.easy': 'easy',
'level.medium': 'medium',
'level.hard': 'hard',

'piece.wK': 'white king', 'piece.wQ': 'white queen', 'piece.wR': 'white rook', 'piece.wB': 'white bishop', 'piece.wN': 'white knight', 'piece.wP': 'white pawn',
'piece.bK': 'black king', 'piece.bQ': 'black queen', 'piece.bR': 'black rook', 'piece.bB': 'black bishop', 'piece.bN': 'black knight', 'piece.bP': 'black pawn',
'piece.man-white': 'white man', 'piece.man-black': 'black man', 'piece.king-white': 'white king', 'piece.king-black': 'black king',
'role.K': 'king', 'role.Q': 'queen', 'role.R': 'rook', 'role.B': 'bishop', 'role.N': 'knight', 'role.P': 'pawn',
'piece.army': '{army} {role}',
'square.empty': '{sq}, empty',
'square.piece': '{sq}, {piece}',

'lobby.name': 'Your name',
'lobby.name_save': 'Save',
'lobby.name_saved': 'Name saved.',
'lobby.players': 'Players online',
'lobby.no_players': 'Nobody else is online right now.',
'lobby.favourite': 'Favourite',
'lobby.challenge': 'Challenge',
'lobby.tables': 'Open tables',
'lobby.no_tables': 'No open tables. Create one!',
'lobby.free_seats': '{n} free',
'lobby.host': 'Made by {name} · {age}',
'lobby.age_now': 'just now',
'lobby.age_min': '{n} min ago',
'lobby.age_hour': '{n} h ago',
'lobby.playing': 'playing',
'lobby.join': 'Join',
'lobby.watch': 'Watch',
'lobby.rated': 'rated',
'lobby.casual': 'casual',
'lobby.quick': 'Play the computer',
'lobby.quick_chess': 'Chess against the computer',
'lobby.quick_draughts': 'Checkers against the computer',
'lobby.quick_chess4': 'Four-player chess with three computers',
'lobby.code': 'Join a private table',
'lobby.code_placeholder': 'Table code',
'lobby.code_join': 'Join',

'create.title': 'Create a table',
'create.game': 'Game',
'create.time': 'Time',
'create.rated': 'Rated (changes ratings)',
'create.private': 'Private (join by link or code only)',
'create.house': 'House rules',
'create.show_legal': 'Show legal moves',
'create.rotate_first': 'Next game starts one seat further',
'create.mandatory_capture': 'Capturing is compulsory',
'create.move_limit': 'End after this many moves (empty: no limit)',
'create.seats': 'Seats',
'create.seat_n': 'Seat {n}',
'create.seat_me': 'Me',
'create.seat_open': 'Open to anyone',
'create.seat_cpu': 'Computer',
'create.submit': 'Create table',
'create.level': 'Level',

'tc.default': 'Standard: 15 minutes each, 1 minute per move at most',
'tc.none': 'No clock',
'tc.base_only': '{m} min each',
'tc.base': '{m} min + {i} s',
'tc.move': '{s} s per move',
'tc.untimed': 'no clock',

'chal.send': 'Challenge {name}',
'chal.incoming': '{name} challenges you: {game}, {time}',
'chal.outgoing': 'Waiting for {name} to answer: {game}, {time}',
'chal.accept': 'Accept',
'chal.decline': 'Decline',
'chal.cancel': 'Withdraw',
'chal.you_accepted': 'You accepted {name}\'s challenge. Off to the table!',
'title.your_move': 'Your move',
'title.challenge': 'Challenge!',
'chal.accepted': '{name} accepted. Off to the table!',
'chal.declined': '{name} declined the challenge.',
'chal.cancelled': '{name} withdrew the challenge.',
'chal.gone': 'The challenge ended: {name} went offline.',

'table.spectators': '{n} watching',
'table.share': 'Invite a friend',
'table.share_link': 'Link',
'table.share_code': 'Code',
'table.waiting': 'Waiting for players…',
'table.cpu_playing': 'The computer is playing for you, because your time ran out or you were away.',
'table.cpu_playing_stop': 'I will play myself',
'table.your_turn': 'Your turn',
'table.their_turn': '{name} to move',
'table.moves': 'Moves',
'table.no_moves': 'No moves yet.',
'table.chat': 'Chat',
'table.chat_placeholder': 'Say something…',
'table.chat_send': 'Send',
'table.resign': 'Resign',
'table.resign_confirm': 'Resign this game?',
'table.draw_offer': 'Offer a draw',
'table.draw_offered_you': 'You offered a draw.',
'table.draw_offered': '{name} offers a draw.',
'table.draw_accept': 'Accept draw',
'table.draw_decline': 'Decline',
'table.draw_declined': 'The draw offer was declined.',
'table.abort': 'Abort',
'table.rematch': 'Rematch',
'table.rematch_asked': 'Rematch asked ({n}/{m})',
'table.leave': 'Leave table',
'table.download_pgn': 'Download PGN',
'table.download_pdn': 'Download PDN',
'table.download_pgn4': 'Download PGN4',
'table.share_image': 'Share image',
'table.move_input': 'Type a move',
'table.move_input_hint_chess': 'e.g. e4, Nf3, O-O, e7e8q',
'table.move_input_hint_draughts': 'e.g. 11-15, 22x15',
'table.move_input_hint_chess4': 'e.g. h2-h3, Ne1-f3',
'table.move_unknown': 'No legal move matches “{text}”.',
'table.promotion': 'Promote to',
'table.path': 'Which way?',
'table.path_option': 'via {squares}',
'table.blocked_confirm': 'A player you have blocked sits at this table. Sit down anyway?',
'table.blocked_yes': 'Sit anyway',
'table.rating': 'Rating: {before} → {after}',
'table.provisional': '(provisional)',
'table.menu_for': 'Actions for {name}',
'table.fav_on': 'Add to favourites',
'table.fav_off': 'Remove from favourites',
'table.mute_on': 'Mute chat',
'table.mute_off': 'Unmute chat',
'table.block_on': 'Block',
'table.block_off': 'Unblock',
'table.block_confirm': 'Block {name}? They cannot challenge you or sit at your tables.',
'table.board': 'Board',

'result.wins': '{who} wins',
'result.draw': 'Draw',
'result.aborted': 'Game aborted',
'result.places': 'Places: {list}',
'result.place': '{n}. {who}',
'reason.checkmate': 'by checkmate',
'reason.stalemate': 'by stalemate',
'reason.threefold': 'by threefold repetition',
'reason.fifty_move': 'by the fifty-move rule',
'reason.no_progress': 'no progress for too long',
'reason.endgame_limit': 'by the endgame move limit',
'reason.insufficient_material': 'nobody can checkmate any more',
'reason.no_pieces': 'no pieces left',
'reason.blocked': 'no move left',
'reason.resignation': 'by resignation',
'reason.timeout': 'on time',
'reason.timeout_vs_insufficient_material': 'time ran out, but the opponent could not checkmate',
'reason.agreement': 'by agreement',
'reason.abandoned': 'a player left the game',
'reason.points_gap': 'the lead in points could not be caught',
'reason.last_player_standing': 'last player standing',
'reason.move_limit': 'the move limit was reached',
'reason.aborted': 'aborted before it really began',

'say.moved': '{who}: {move}',
'say.check': 'Check',
'say.your_turn': 'Your turn',
'say.ended': 'Game over. {result}',
'say.started': 'The game has begun.',
'say.sat': '{name} sat down',
'say.away': '{name} is away',
'say.back': '{name} is back',
'say.eliminated': '{who} is out',
'say.selected': '{sq} selected',

'history.title': 'Games played',
'history.of': 'Games of {name}',
'history.none': 'No finished games yet.',
'history.more': 'Older games',
'history.replay': 'Replay',
'history.won': 'won',
'history.lost': 'lost',
'history.drawn': 'draw',
'history.place': 'place {n}',
'replay.title': 'Replay',
'replay.first': 'Start',
'replay.prev': 'Back',
'replay.next': 'Forward',
'replay.last': 'End',
'replay.ply': 'Move {n} of {m}',
'replay.not_found': 'This game was not found.',

'rules.title': 'Rules',
'rules.chess': `# Chess
Two players, White and Black, move in turn; White starts. Each side has a king, a queen, two rooks, two bishops, two knights and eight pawns.
# How the pieces move
- The king moves one square in any direction.
- The queen moves any distance along a rank, a file or a diagonal.
- The rook moves any distance along a rank or a file.
- The bishop moves any distance along a diagonal.
- The knight jumps in an L: two squares one way and one to the side. It may jump over pieces.
- The pawn moves one square forward, or two from its starting square, and captures one square diagonally forward.
# Special moves
- Castling: the king moves two squares towards a rook, and the rook jumps to the square beside it on the other side. Allowed only if neither has moved, the squares between are empty, and the king is not in check and does not pass through or land on an attacked square.
- En passant: a pawn that has just made a double step can be captured by an enemy pawn beside it, as if it had moved one square; only on the very next move.
- Promotion: a pawn reaching the last rank becomes a queen, rook, bishop or knight, as the player chooses.
# Check and the end of the game
- A king under attack is in check; the player must get out of check. A move may never leave one's own king in check.
- Checkmate (in check and no legal move) wins the game.
- Stalemate (not in check but no legal move) is a draw.
- Also a draw: the same position for the third time, fifty moves by each side without a capture or a pawn move, not enough pieces left for either side to checkmate, or a draw offered and accepted.
- Resigning loses. Running out of time loses, unless the opponent could never checkmate: then it is a draw.
- Leaving a game and not coming back within a minute loses it.`,
'rules.draughts': `# Checkers (draughts)
Two players move in turn on the dark squares. Each starts with twelve men (twenty on the 10x10 board). In checkers and pool checkers Black moves first; in international and Russian draughts White does.
# Moves
- A man moves one square diagonally forward.
- A man that reaches the far row becomes a king (a second piece is put on it; here a crown marks it).
- In checkers a king moves one square diagonally, forwards or backwards. In international, Russian and pool draughts a king flies any distance along a diagonal.
# Capturing
- A piece captures by jumping over an enemy piece next to it onto the empty square beyond. The captured piece is removed.
- Capturing is compulsory: if you can capture, you must (a table's house rules may turn this off).
- Multi-jump: if after a capture the same piece can capture again, it goes on jumping in the same move.
- In international draughts you must take the sequence that captures the most pieces. In checkers you may choose any capture.
- When two capture paths start and end on the same squares, the board asks which way you mean.
- In international and Russian draughts men may also capture backwards.
# End of the game
- You win when your opponent has no pieces left or cannot move.
- A draw is agreed, or declared when the same position comes three times or when nobody makes progress for too long (no capture and no man moved).
- Resigning, running out of time or leaving the game loses it.`,
'rules.chess4': `# Four-player chess
Four armies, Red, Blue, Yellow and Green, play each for themselves on a cross-shaped board of 160 squares. Red starts, then the turn goes clockwise: Red, Blue, Yellow, Green. Each army has its own mark (● ▲ ■ ◆) so colour is never needed.
# Moves
- The pieces move as in chess. Pawns move towards the opposite side of the board and are promoted on reaching the middle line of the board (the eighth rank from their side), here to a queen.
- Castling works as in chess, on each army's own side.
# Points
- Capturing earns points: pawn 1, knight 3, bishop 5, rook 5, queen 9 (a promoted queen is worth 1).
- Checkmating a player earns 20 points; putting two kings in check at once earns a bonus.
- A player who is checkmated, stalemated, resigns or runs out of time is out: their pieces turn grey and stay on the board, and no longer count.
# End of the game
- The game ends when one player is left, or when the leader cannot be caught, or when the table's move limit is reached.
- Places go by points. A player who left keeps their points; at a Parlor table a computer plays an absent person's army until they come back.`,
};
