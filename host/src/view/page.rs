//! The replay viewer's page (`host/web/`: no framework, no build step), built into the binary, with a
//! game's frames embedded as JSON: what `botbox view` serves or writes and the league's game pages
//! return.

use super::frames::Viewer;

const PAGE: &str = include_str!("../../web/viewer.html");
const CSS: &str = include_str!("../../web/viewer.css");
const JS: &str = include_str!("../../web/viewer.js");

/// The viewer page with `viewer`'s frames inside (or none: the page then asks for a file).
pub fn html(viewer: Option<&Viewer>) -> String {
    let data = match viewer {
        Some(v) => script_json(&serde_json::to_string(v).expect("frames serialize")),
        None => "null".into(),
    };
    PAGE.replacen("/*CSS*/", CSS, 1)
        .replacen("/*JS*/", JS, 1)
        .replacen("/*DATA*/", &data, 1)
}

/// JSON made safe to embed in a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 written as
/// `\u` escapes, so no text a bot chose (`</script>`, `<!--<script>`) can move the HTML parser out
/// of the element's data state. They only occur inside JSON strings, where the escapes mean the
/// same characters.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// Nothing in the embedded data can open or close an element or a comment, and it still parses
    /// to the same strings.
    #[test]
    fn embedded_json_holds_no_markup() {
        let text = "</script><!--<script>&amp;\u{2028}\u{2029}";
        let json = super::script_json(&serde_json::to_string(&text).unwrap());
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            assert!(!json.contains(bad), "{bad:?} in {json}");
        }
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}
