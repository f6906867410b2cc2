# Shared by the viewer's test scripts (tests/viewer/*.sh), sourced:
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.sh"
# start_xvfb SCREEN (e.g. 1280x720x24) starts one Xvfb server for the script, waits until it accepts
# clients and exports DISPLAY; stop_xvfb (call it from the script's EXIT trap) ends it. Used instead of
# xvfb-run, whose own clean-up fails now and then ("problem while cleaning up temporary directory", exit 5,
# seen in CI) and would read as the viewer's exit code.
xvfb_pid=""

start_xvfb() {
    if ! command -v Xvfb >/dev/null; then
        echo "FAIL: Xvfb not found: install xvfb (the project's ./run installs it)" >&2
        return 1
    fi
    local ready
    ready=$(mktemp)
    # -displayfd: the server picks a free display and writes its number once it accepts clients.
    Xvfb -displayfd 3 -screen 0 "$1" -nolisten tcp 3>"$ready" 2>/dev/null &
    xvfb_pid=$!
    for _ in $(seq 200); do
        [ -s "$ready" ] && break
        sleep 0.05
    done
    if [ ! -s "$ready" ]; then
        echo "FAIL: Xvfb did not start" >&2
        rm -f "$ready"
        return 1
    fi
    export DISPLAY=":$(head -n 1 "$ready")"
    rm -f "$ready"
}

stop_xvfb() {
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    xvfb_pid=""
}
