//! The tag pairs that open a PGN-style game text (PDN for draughts, PGN4 for four-player chess): `[Name "value"]`
//! lines before the movetext. Each game's reader takes the movetext from here.

/// The value of the first tag of that name.
pub fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// `[Name "value"]` with `\"` and `\\` escapes; `None` for anything else.
pub fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_owned(), value))
}

/// Splits a text into its tag pairs (the `[...]` lines before the movetext) and its movetext.
///
/// # Errors
/// The 1-based number of a line that opens like a tag but is not one.
pub fn split_tags(text: &str) -> Result<(Vec<(String, String)>, String), usize> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for (i, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && movetext.trim().is_empty() {
            tags.push(parse_tag(trimmed).ok_or(i + 1)?);
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    Ok((tags, movetext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_then_movetext() {
        let (tags, movetext) =
            split_tags("\u{feff}[Event \"A \\\"cup\\\"\"]\n[Site \"x\"]\n\n1. 11-15 *\n").unwrap_or_default();
        assert_eq!(
            tags,
            vec![("Event".into(), "A \"cup\"".into()), ("Site".into(), "x".into())]
        );
        assert_eq!(tag_value(&tags, "Site"), Some("x"));
        assert_eq!(tag_value(&tags, "Round"), None);
        assert_eq!(movetext.trim(), "1. 11-15 *");
        assert_eq!(split_tags("[Event \"x\"]\n[Broken\n"), Err(2));
        assert_eq!(parse_tag("[Name value]"), None);
    }

    #[test]
    fn tags_unescape_and_refuse_bad_lines() {
        assert_eq!(
            parse_tag(r#"[White "A \"B\" \\ C"]"#),
            Some(("White".into(), r#"A "B" \ C"#.into()))
        );
        for bad in ["[White]", "[White A]", r#"[White "A"#, r#"[White "A\"]"#] {
            assert_eq!(parse_tag(bad), None, "{bad}");
        }
    }
}
