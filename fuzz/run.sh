#!/usr/bin/env bash
# Runs one fuzz target, seeded from the project's fixtures and (read-only) the real-file
# corpus in $RIGPORT_CORPUS, one job at a time.
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
# TARGET: a format key with `_` for `-` (ms3d | ms3d_ascii | iqe | iqm | glb | gltf | md5mesh |
# md5anim | smd | psk | psa | b3d), or pipeline | sniff. SECONDS defaults to 600.
# New inputs go to fuzz/corpus/TARGET, crashes to fuzz/artifacts/TARGET (both git-ignored);
# minimize a crash with `cargo +nightly fuzz tmin -s none TARGET ARTIFACT` and commit it
# under fuzz/regressions/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]}"
seconds="${2:-600}"
shift $(( $# >= 2 ? 2 : 1 ))

case "$target" in
    ms3d) formats=(ms3d); dict=ms3d ;;
    ms3d_ascii) formats=(ms3d-ascii); dict=ms3d_ascii ;;
    iqe) formats=(iqe); dict=iqe ;;
    iqm) formats=(iqm); dict= ;;
    smd) formats=(smd smd-damaged); dict=smd ;;
    glb | gltf) formats=(gltf); dict=gltf ;;
    md5mesh | md5anim) formats=(md5 md5-damaged); dict=md5 ;;
    psk | psa) formats=(psk psk-damaged); dict= ;;
    b3d) formats=(b3d b3d-damaged); dict= ;;
    pipeline | sniff) formats=(ms3d ms3d-ascii iqe iqm gltf md5 smd psk b3d); dict= ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac

# Fixtures are copied (the first corpus directory is where libFuzzer writes); real files
# are only read, from where they are: they must never be copied into the repository.
mkdir -p "corpus/$target"
seeds=()
for format in "${formats[@]}"; do
    cp -n ../fixtures/"$format"/* "corpus/$target/" 2>/dev/null || true
    if [[ -n "${RIGPORT_CORPUS:-}" && -d "$RIGPORT_CORPUS/$format" ]]; then
        seeds+=("$RIGPORT_CORPUS/$format")
    fi
done
if [[ -d "regressions/$target" ]]; then
    seeds+=("regressions/$target")
fi

flags=(-max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048
       -malloc_limit_mb=1024 -timeout=10 -print_final_stats=1)
if [[ -n "$dict" ]]; then
    flags+=(-dict="dict/$dict.dict")
fi

exec cargo +nightly fuzz run -s none "$target" "corpus/$target" "${seeds[@]}" -- \
    "${flags[@]}" "$@"
