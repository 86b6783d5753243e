//! Builds the bot: `zig build` (or `python3 -m ziglang build`) writes zig-out/bin/bot.wasm, a
//! wasm32-freestanding module with no entry point whose exports (the `export fn`s of src/botbox.zig
//! and src/{{game}}.zig) are kept. The root is src/{{game}}.zig, the SDK's game file: it imports
//! src/bot.zig and calls the bot's function. The default is ReleaseSmall; `zig build
//! -Doptimize=ReleaseSafe` (Zig 0.17 also says `=safe`) adds safety checks: a failed one logs its
//! message and traps (fault `trap`).
const std = @import("std");

pub fn build(b: *std.Build) void {
    const optimize = b.option(std.builtin.Optimize, "optimize", "debug, safe, fast or small (the default)") orelse .small;
    const exe = b.addExecutable(.{
        .name = "bot",
        .root_module = b.createModule(.{
            .root_source_file = b.path("src/{{game}}.zig"),
            .target = b.resolveTargetQuery(.{ .cpu_arch = .wasm32, .os_tag = .freestanding }),
            .optimize = optimize,
            .strip = optimize != .debug, // no debug sections in a release
        }),
    });
    exe.entry = .disabled; // no _start: the host calls the exports
    exe.rdynamic = true; // keep every `export fn`
    b.installArtifact(exe);
}
