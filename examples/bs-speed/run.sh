#!/bin/sh
# Builds the contest's Java controller with its four reference players and this
# harness, then plays N games (default 50000): the yardstick for BS in BENCHMARKS.md.
#
#   git clone https://github.com/prakol16/bs /tmp/prakol16-bs
#   sh examples/bs-speed/run.sh /tmp/prakol16-bs 50000
#
# The controller's player list names a fifth class (PlayerTruthy) that the
# repository does not hold; the copy built here leaves it out, so every game is
# Player1-4, as in `botbox tournament bs --players player{1,2,3,4}.lua`.
set -eu
repo=${1:?usage: run.sh PATH-TO-prakol16-bs [GAMES]}
games=${2:-50000}
here=$(cd "$(dirname "$0")" && pwd)
work=${BS_JAVA_DIR:-/tmp/botbox-bs-java}
if [ ! -f "$work/classes/controller/BsBench.class" ]; then
    rm -rf "$work" && mkdir -p "$work/classes"
    cp -r "$repo/src" "$work/src"
    sed -i 's/, PlayerTruthy\.class//' "$work/src/controller/Controller.java"
    cp "$here/BsBench.java" "$work/src/controller/"
    javac -nowarn -d "$work/classes" $(find "$work/src" -name '*.java') >&2
fi
exec java -cp "$work/classes" controller.BsBench "$games"
