//! Player names: what a chosen name may hold, and the name a new player gets. A name is shown to others next to
//! their moves and chat, so it may not hide text, reorder the text around it, or pass for someone else's.

use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Longest name, in characters.
pub const MAX_CHARS: usize = 24;

/// The prefix of the names given to new players.
const GUEST_PREFIX: &str = "Guest-";

/// Why a name is refused; the words go to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty (or only spaces) or too long.
    #[error("a name has 1 to {MAX_CHARS} characters")]
    Length,
    /// Nothing visible: only spaces, marks or joiners.
    #[error("a name needs at least one letter, digit or sign")]
    Invisible,
    /// A control, format (invisible, direction-changing), private-use or unassigned character.
    #[error("a name cannot hold invisible or direction-changing characters (U+{0:04X})")]
    Hidden(u32),
    /// The pattern of the names given to new players, not one's own.
    #[error("names like Guest-1A2B are given to new players: choose another")]
    Guest,
}

/// The name a new player gets from their id.
pub fn guest_name(id: &str) -> String {
    let tag: String = id
        .chars()
        .filter(|c| *c != '-')
        .take(4)
        .collect::<String>()
        .to_ascii_uppercase();
    format!("{GUEST_PREFIX}{tag}")
}

/// Characters that show nothing though their category is a visible one (fillers, blanks, invisible marks).
fn is_blank(c: char) -> bool {
    matches!(
        c,
        '\u{034F}' // combining grapheme joiner
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
            | '\u{180B}'
            ..='\u{180F}' // Mongolian free variation selectors and vowel separator
            | '\u{2800}' // braille blank
    )
}

/// A character that changes or hides text by itself: controls, format characters (bidi embeddings, overrides,
/// isolates and marks; zero-width spaces and joiners; word joiner; invisible operators; BOM; soft hyphen; tags),
/// line and paragraph separators, private use, unassigned.
fn is_hidden(c: char) -> bool {
    is_blank(c)
        || matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::Surrogate
                | GeneralCategory::PrivateUse
                | GeneralCategory::Unassigned
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
}

/// Zero-width joiner and non-joiner: Bengali and Devanagari need them inside a word (র‍্য, क्‍ष, and the like),
/// emoji sequences too; they are allowed between two visible characters only.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

fn is_visible(c: char) -> bool {
    !c.is_whitespace() && !is_hidden(c) && !is_joiner(c)
}

/// Checks a name chosen by the player `own_id` and returns it trimmed.
///
/// # Errors
/// Why the name is refused.
pub fn check(name: &str, own_id: &str) -> Result<String, NameError> {
    let name = name.trim();
    let chars: Vec<char> = name.chars().collect();
    if chars.is_empty() || chars.len() > MAX_CHARS {
        return Err(NameError::Length);
    }
    for (i, &c) in chars.iter().enumerate() {
        if is_joiner(c) {
            let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
            let after = chars.get(i + 1).copied();
            if !(before.is_some_and(is_visible) && after.is_some_and(is_visible)) {
                return Err(NameError::Hidden(u32::from(c)));
            }
        } else if is_hidden(c) {
            return Err(NameError::Hidden(u32::from(c)));
        }
    }
    let shows = chars.iter().any(|c| {
        is_visible(*c)
            && matches!(
                c.general_category_group(),
                GeneralCategoryGroup::Letter
                    | GeneralCategoryGroup::Number
                    | GeneralCategoryGroup::Punctuation
                    | GeneralCategoryGroup::Symbol
            )
    });
    if !shows {
        return Err(NameError::Invisible);
    }
    if is_guest_pattern(name) && !name.eq_ignore_ascii_case(&guest_name(own_id)) {
        return Err(NameError::Guest);
    }
    Ok(name.to_owned())
}

/// `Guest-` and four letters or digits, in any case.
fn is_guest_pattern(name: &str) -> bool {
    let Some(prefix) = name.get(..GUEST_PREFIX.len()) else {
        return false;
    };
    let tag = &name[GUEST_PREFIX.len()..];
    prefix.eq_ignore_ascii_case(GUEST_PREFIX)
        && tag.chars().count() == 4
        && tag.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0192ab34-5678-7abc-8def-0123456789ab";

    #[test]
    fn ordinary_names_pass_trimmed() {
        for name in [
            "Asha",
            "  Ravi K. ",
            "দাবাড়ু",
            "বুদ্ধিমান খেলোয়াড়",
            "सौरभ",
            "Zoë 2",
            "👨‍👩‍👧 fam",
        ] {
            assert_eq!(check(name, ID), Ok(name.trim().to_owned()), "{name:?}");
        }
    }

    #[test]
    fn bengali_and_marathi_joiners_inside_a_word_pass() {
        // র‍্যাব: ra + ZWJ + hasanta + ya (ya-phala after ra); ক্‌ষ: explicit hasanta with ZWNJ.
        for name in [
            "র\u{200D}্যাব",
            "ক্\u{200C}ষমা",
            "अर्\u{200D}य",
            "क्\u{200C}ष",
            "सक्\u{200D}षम",
        ] {
            assert_eq!(check(name, ID), Ok(name.to_owned()), "{name:?}");
        }
    }

    #[test]
    fn joiners_at_the_edges_or_alone_are_refused() {
        for name in [
            "\u{200D}abc",
            "abc\u{200C}",
            "a \u{200D} b",
            "\u{200D}",
            "a\u{200D}\u{200D}b",
        ] {
            assert!(check(name, ID).is_err(), "{name:?}");
        }
    }

    #[test]
    fn direction_and_invisible_characters_are_refused() {
        for c in [
            '\u{202A}',
            '\u{202B}',
            '\u{202C}',
            '\u{202D}',
            '\u{202E}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{200E}',
            '\u{200F}',
            '\u{061C}',
            '\u{200B}',
            '\u{2060}',
            '\u{2061}',
            '\u{2062}',
            '\u{2063}',
            '\u{2064}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{E0041}',
            '\u{3164}',
            '\u{115F}',
            '\u{2028}',
            '\u{E000}',
        ] {
            let name = format!("ab{c}cd");
            assert_eq!(check(&name, ID), Err(NameError::Hidden(u32::from(c))), "{name:?}");
        }
    }

    #[test]
    fn names_with_nothing_visible_are_refused() {
        assert_eq!(check("   ", ID), Err(NameError::Length));
        assert_eq!(check("\u{3000}\u{3000}", ID), Err(NameError::Length));
        assert_eq!(check("\u{0301}\u{0301}", ID), Err(NameError::Invisible));
        assert!(check("\u{3164}", ID).is_err());
    }

    #[test]
    fn another_players_guest_name_is_refused_but_ones_own_is_kept() {
        assert_eq!(guest_name(ID), "Guest-0192");
        assert_eq!(check("Guest-0192", ID), Ok("Guest-0192".to_owned()));
        assert_eq!(check("guest-0192", ID), Ok("guest-0192".to_owned()));
        assert_eq!(check("Guest-7F3A", ID), Err(NameError::Guest));
        assert_eq!(check("GUEST-abcd", ID), Err(NameError::Guest));
        assert_eq!(check("Guest-Anna", ID), Err(NameError::Guest));
        assert!(check("Guest-Annabel", ID).is_ok());
        assert!(check("Guest", ID).is_ok());
    }

    #[test]
    fn length_is_counted_in_characters() {
        assert!(check(&"অ".repeat(MAX_CHARS), ID).is_ok());
        assert_eq!(check(&"a".repeat(MAX_CHARS + 1), ID), Err(NameError::Length));
    }
}
