# Shared by the CLI test scripts (tests/cli/*.sh), sourced with the script's own arguments:
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/expect.sh"
# Sets bin (the baseskin binary, $1), tmp (a scratch folder removed on exit) and failures (the count of
# failed checks), and defines fail and expect. Lives under lib/ so the tests' glob (cli/*.sh) skips it.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# fail MESSAGE: reports a failed check and counts it.
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# expect CODE MESSAGE_FRAGMENT -- ARGS...
expect() {
    local code=$1 fragment=$2
    shift 3
    local out
    out=$("$bin" "$@" 2>&1)
    local got=$?
    if [ "$got" -ne "$code" ] || ! grep -qF -- "$fragment" <<<"$out"; then
        fail "baseskin $* -> exit $got (want $code), output:"
        echo "$out" | sed 's/^/    /'
        echo "    (wanted to contain: $fragment)"
    fi
}
