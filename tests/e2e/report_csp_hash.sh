#!/usr/bin/env bash
# The report's Content-Security-Policy hash is computed at build time (cmake/EmbedScript.cmake,
# docs/reports.md "The HTML report"): the CMake script's SHA-256 in base64 against the FIPS 180-4
# vectors and Python's hashlib on awkward texts (CMake's list separator, its variable syntax,
# backslashes, CRLF, UTF-8, a NUL, no final newline), the text embedded byte for byte; and the
# page iobench writes carries assets/report.js itself, under that hash.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v cmake >/dev/null || skip "no cmake here"
command -v python3 >/dev/null || skip "no python3"
embed=$src/cmake/EmbedScript.cmake

# embed FILE: writes $tmp/out.hpp from FILE.
embed() {
  cmake -DINPUT="$1" -DOUTPUT="$tmp/out.hpp" -DNAME=kScript -P "$embed" >"$tmp/embed.out" 2>&1 ||
    fail "EmbedScript.cmake failed on $1: $(cat "$tmp/embed.out")"
}

# check_header FILE HEADER: HEADER holds FILE's bytes and the base64 of their SHA-256.
check_header() {
  python3 - "$1" "$2" <<'PY' || fail "the header made from $1 is wrong (above)"
import base64, hashlib, re, sys
data = open(sys.argv[1], "rb").read()
header = open(sys.argv[2], "rb").read()
text = bytes(int(h, 16) for h in re.findall(rb"'\\x([0-9a-f]{2})'", header))
assert text == data, (text[:80], data[:80])
assert f"{{kScriptBytes, {len(data)}}}".encode() in header or not data
digest = re.search(rb'Sha256 = "([^"]*)"', header).group(1).decode()
want = base64.b64encode(hashlib.sha256(data).digest()).decode()
assert digest == want, (digest, want)
PY
}

# The standard's vectors, written out: base64 of SHA-256("") and of SHA-256("abc").
: >"$tmp/empty.js"
embed "$tmp/empty.js"
grep -qF 'kScriptSha256 = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="' "$tmp/out.hpp" ||
  fail "SHA-256 of the empty text: $(grep Sha256 "$tmp/out.hpp")"
printf abc >"$tmp/abc.js"
embed "$tmp/abc.js"
grep -qF 'kScriptSha256 = "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="' "$tmp/out.hpp" ||
  fail "SHA-256 of abc: $(grep Sha256 "$tmp/out.hpp")"

# Texts that need SHA-256's second padding block, or many blocks, and what CMake might mangle.
printf 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq' >"$tmp/two-blocks.js"
head -c 1000 /dev/zero | tr '\0' a >"$tmp/thousand.js"
printf 'var a = "x;y"; // ${CMAKE_COMMAND} @ONLY@ \\n \\\\\r\nvar b = [1;2];\r\n)" ]] ` \342\200\231 \000 end' \
  >"$tmp/awkward.js"
for file in "$tmp/empty.js" "$tmp/abc.js" "$tmp/two-blocks.js" "$tmp/thousand.js" \
  "$tmp/awkward.js" "$src/driver/report/assets/report.js"; do
  embed "$file"
  check_header "$file" "$tmp/out.hpp"
done

# The page: its one script is assets/report.js, and its policy names that script's hash.
"$bin/iobench" report "$src/tests/fixtures/reports/runs-ngram.tsv" -o "$tmp/page.html" ||
  fail "report exited $?"
python3 - "$tmp/page.html" "$src/driver/report/assets/report.js" <<'PY' ||
import base64, hashlib, re, sys
page = open(sys.argv[1], "rb").read()
script = open(sys.argv[2], "rb").read()
scripts = re.findall(rb"<script>(.*?)</script>", page, re.S)
assert scripts == [script], "the page's script is not assets/report.js"
policy = re.search(rb'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
digest = base64.b64encode(hashlib.sha256(script).digest())
assert b"script-src 'sha256-" + digest + b"'" in policy, policy
PY
  fail "the page's script or its hash (above)"
echo "ok: the CSP hash is computed at build time and is the page's script's"
