// botbox: rebuild (and so have mlua-sys rebuild Luau) when a source under luau/ changes; the
// published crate has no build script, since its sources never change.
fn main() {
    println!("cargo:rerun-if-changed=luau");
}
