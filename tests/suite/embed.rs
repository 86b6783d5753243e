//! The narrated embedding example in examples/ runs and does what it says.

use crate::util;

use std::process::Command;

#[test]
fn the_embedding_example_runs() {
    // Cargo builds examples before running integration tests; the binary sits beside this test's deps.
    let exe = std::env::current_exe().unwrap();
    let example = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples/embed");
    let out = Command::new(&example)
        .current_dir(util::repo())
        .output()
        .expect("running examples/embed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("final score"), "{text}");
}
