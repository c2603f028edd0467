//! Who is online: the players connected to this node (and whether they show themselves), the players visible on
//! other nodes, the lobby watchers' presence news and the list of online players they see.

use super::{Hub, lock};
use crate::outbox::{ConnId, Outbox, encode};
use crate::table::Cmd;
use parlor_protocol::{OnlinePlayer, PlayerInfo, ServerMsg};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The players this node knows to be online.
#[derive(Debug, Default)]
pub(super) struct People {
    /// Connected to this node.
    here: HashMap<String, Here>,
    /// Visible on other nodes: their info and the nodes where they are.
    elsewhere: HashMap<String, (PlayerInfo, HashSet<String>)>,
}

/// A player connected to this node.
#[derive(Debug)]
pub(super) struct Here {
    pub(super) info: PlayerInfo,
    pub(super) outboxes: HashMap<ConnId, Outbox>,
    pub(super) visible: bool,
}

impl Here {
    fn is_shown(&self) -> bool {
        self.visible && !self.outboxes.is_empty()
    }
}

impl People {
    fn is_visible_elsewhere(&self, player: &str) -> bool {
        self.elsewhere
            .get(player)
            .is_some_and(|(_, nodes)| !nodes.is_empty())
    }

    fn is_connected_anywhere(&self, player: &str) -> bool {
        self.here.contains_key(player) || self.is_visible_elsewhere(player)
    }

    fn is_online(&self, player: &str) -> bool {
        self.here.get(player).is_some_and(Here::is_shown) || self.is_visible_elsewhere(player)
    }

    /// The player's info if they are connected here and show themselves.
    pub(super) fn shown_here(&self, player: &str) -> Option<PlayerInfo> {
        self.here
            .get(player)
            .filter(|p| p.is_shown())
            .map(|p| p.info.clone())
    }

    /// The player's info if they are visible on another node.
    pub(super) fn seen_elsewhere(&self, player: &str) -> Option<PlayerInfo> {
        self.elsewhere.get(player).map(|(info, _)| info.clone())
    }
}

impl Hub {
    /// A connection came: the player is online (unless they chose to appear offline). Returns their visibility.
    pub fn connected(&self, outbox: &Outbox) -> bool {
        self.site.connected(outbox);
        let info = outbox.session().info();
        let (first, visible) = {
            let mut people = lock(&self.people);
            let entry = people.here.entry(info.id.clone()).or_insert(Here {
                info: info.clone(),
                outboxes: HashMap::new(),
                visible: true,
            });
            entry.outboxes.insert(outbox.conn(), outbox.clone());
            entry.info = info.clone();
            (entry.outboxes.len() == 1 && entry.visible, entry.visible)
        };
        if first {
            self.visible_here(&info, true);
        }
        visible
    }

    /// A connection went: the player goes offline with their last connection, and their challenges lapse.
    pub async fn disconnected(&self, conn: ConnId, player: &str) {
        self.site.disconnected(conn);
        self.lobby.unsubscribe(conn);
        let last = {
            let mut people = lock(&self.people);
            let Some(entry) = people.here.get_mut(player) else {
                return;
            };
            entry.outboxes.remove(&conn);
            if entry.outboxes.is_empty() {
                let last = (entry.info.clone(), entry.visible);
                people.here.remove(player);
                Some(last)
            } else {
                None
            }
        };
        if let Some((info, visible)) = last {
            if visible {
                self.visible_here(&info, false);
            }
            let anywhere = lock(&self.people).is_connected_anywhere(player);
            if !anywhere {
                self.challenges_gone(player).await;
            }
        }
    }

    /// A player became visible on this node, or stopped being: other nodes are told, and lobby watchers here
    /// if that changes whether the player is online at all.
    fn visible_here(&self, info: &PlayerInfo, online: bool) {
        self.site.presence(info, online);
        let elsewhere = lock(&self.people).is_visible_elsewhere(&info.id);
        if !elsewhere {
            self.announce_presence(info, online);
        }
    }

    /// What other nodes said of who is online there (a node joining the site).
    pub fn presence_load(&self, online: Vec<(String, PlayerInfo)>) {
        let mut people = lock(&self.people);
        people.elsewhere.clear();
        for (node, info) in online {
            people
                .elsewhere
                .entry(info.id.clone())
                .or_insert_with(|| (info.clone(), HashSet::new()))
                .1
                .insert(node);
        }
    }

    /// Tells the other nodes again who is visible here (after this node lost touch with them).
    pub fn republish_presence(&self) {
        let visible: Vec<PlayerInfo> = lock(&self.people)
            .here
            .values()
            .filter(|p| p.is_shown())
            .map(|p| p.info.clone())
            .collect();
        for info in visible {
            self.site.presence(&info, true);
        }
    }

    /// A player became visible on another node.
    pub fn remote_online(&self, node: &str, info: PlayerInfo) {
        let was = {
            let mut people = lock(&self.people);
            let was = people.is_online(&info.id);
            let entry = people
                .elsewhere
                .entry(info.id.clone())
                .or_insert_with(|| (info.clone(), HashSet::new()));
            entry.0 = info.clone();
            entry.1.insert(node.to_owned());
            was
        };
        if !was {
            self.announce_presence(&info, true);
        }
    }

    /// A player stopped being visible on another node.
    pub fn remote_offline(&self, node: &str, player: &str) {
        let (info, online) = {
            let mut people = lock(&self.people);
            let Some((info, nodes)) = people.elsewhere.get_mut(player) else {
                return;
            };
            nodes.remove(node);
            let info = info.clone();
            if nodes.is_empty() {
                people.elsewhere.remove(player);
            }
            (info, people.is_online(player))
        };
        if !online {
            self.announce_presence(&info, false);
        }
    }

    /// A node is gone: its players are no longer online there, and their challenges lapse if they are nowhere.
    pub fn node_gone(self: &Arc<Self>, node: &str) {
        let players: Vec<String> = lock(&self.people)
            .elsewhere
            .iter()
            .filter(|(_, (_, nodes))| nodes.contains(node))
            .map(|(id, _)| id.clone())
            .collect();
        for player in players {
            self.remote_offline(node, &player);
            let anywhere = lock(&self.people).is_connected_anywhere(&player);
            if !anywhere {
                let hub = self.clone();
                tokio::spawn(async move { hub.challenges_gone(&player).await });
            }
        }
    }

    /// A player changed their name: the lobby list shows the new one.
    pub fn renamed(&self, info: &PlayerInfo) {
        if let Some(entry) = lock(&self.people).here.get_mut(&info.id) {
            entry.info = info.clone();
        }
        self.site.renamed(info);
    }

    /// A player changed their name on another node: tables and lists here follow.
    pub fn renamed_elsewhere(&self, info: PlayerInfo) {
        if let Some(entry) = lock(&self.people).elsewhere.get_mut(&info.id) {
            entry.0 = info.clone();
        }
        if let Some(session) = self.live_session(&info.id) {
            session.rename(info.name.clone());
        }
        // Only in a site, after the player's own node applied the rename limit: the tables of this node that the
        // player watches from another node are not known here, so each is told (a no-op where they do not sit).
        self.to_all_tables(|| Cmd::Renamed { player: info.clone() });
    }

    /// Whether a player is online and visible (on any node).
    pub fn is_online(&self, player: &str) -> bool {
        lock(&self.people).is_online(player)
    }

    /// Sets a player's visibility; going offline withdraws their challenges.
    pub async fn set_visible(&self, info: &PlayerInfo, visible: bool) {
        {
            let mut people = lock(&self.people);
            let Some(entry) = people.here.get_mut(&info.id) else {
                return;
            };
            if entry.visible == visible {
                return;
            }
            entry.visible = visible;
        }
        self.visible_here(info, visible);
        if !visible {
            self.challenges_gone(&info.id).await;
        }
    }

    /// Sends a message to every connection of a player on this node.
    pub fn to_player(&self, player: &str, msg: &ServerMsg) {
        let text = encode(msg);
        if let Some(p) = lock(&self.people).here.get(player) {
            for outbox in p.outboxes.values() {
                outbox.send_text(text.clone());
            }
        }
    }

    fn announce_presence(&self, info: &PlayerInfo, online: bool) {
        self.lobby.each_subscriber(|outbox| {
            let viewer = outbox.session().id();
            let msg = if online {
                ServerMsg::PlayerOnline {
                    player: OnlinePlayer {
                        player: info.clone(),
                        favourite: self.marks.is_favourite(&viewer, &info.id),
                    },
                }
            } else {
                ServerMsg::PlayerOffline { id: info.id.clone() }
            };
            outbox.send(&msg);
        });
    }

    /// Online visible players as `viewer` sees them (on every node), favourites first, then by name.
    pub fn online_players(&self, viewer: &str) -> Vec<OnlinePlayer> {
        let mut seen = HashSet::new();
        let mut players: Vec<OnlinePlayer> = Vec::new();
        {
            let people = lock(&self.people);
            for p in people.here.values().filter(|p| p.is_shown()) {
                seen.insert(p.info.id.clone());
                players.push(OnlinePlayer {
                    player: p.info.clone(),
                    favourite: self.marks.is_favourite(viewer, &p.info.id),
                });
            }
            for (id, (info, nodes)) in &people.elsewhere {
                if !nodes.is_empty() && seen.insert(id.clone()) {
                    players.push(OnlinePlayer {
                        player: info.clone(),
                        favourite: self.marks.is_favourite(viewer, id),
                    });
                }
            }
        }
        players.sort_by(|a, b| {
            b.favourite
                .cmp(&a.favourite)
                .then_with(|| a.player.name.cmp(&b.player.name))
        });
        players
    }

    /// Starts or stops lobby updates for a connection (a start sends the whole lobby; a start while subscribed
    /// does nothing, so a client cannot make the server queue the whole lobby again and again).
    pub fn lobby_subscribe(&self, outbox: &Outbox, on: bool) {
        if !on {
            self.lobby.unsubscribe(outbox.conn());
            return;
        }
        if self.lobby.is_subscribed(outbox.conn()) {
            return;
        }
        let players = self.online_players(&outbox.session().id());
        self.lobby.subscribe(outbox, players);
    }
}
