#!/bin/sh
# Builds bot.wasm from bot.c (and the SDK headers beside it) for botbox: `sh build.sh` from anywhere.
# clang compiles C to WebAssembly; wasm-ld (from lld) links it. See docs/bots/c.md.
cd "$(dirname "$0")" || exit 1
for tool in clang wasm-ld; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build.sh: $tool is missing; install clang and lld (Debian/Ubuntu: apt-get install clang lld)"
        exit 1
    fi
done
# -ffreestanding -nostdlib: no C library (botbox.h has the little it needs); --no-entry: no main;
# --stack-first: a stack overflow traps instead of overwriting globals; 1 MiB of stack.
exec clang --target=wasm32 -O2 -ffreestanding -nostdlib -Wall -Wextra \
    -Wl,--no-entry -Wl,--stack-first -Wl,-z,stack-size=1048576 \
    -o bot.wasm bot.c
