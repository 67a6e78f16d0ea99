#!/bin/sh
# pytest on a directory of tests with Debian's python3, the package
# haptix from the source tree and its generated messages from the build
# tree; the tests start real haptixd daemons.  Missing pytest, NumPy or
# protobuf fail the test, they do not skip it.  Run by python.sh and
# sweep.sh, which make check runs:
#
#	pytest.sh NAME DIR [VARIABLE...]
#
# NAME for messages, DIR under the source tree, and the variables of
# make check's environment the tests need besides the common ones.
name=$1 dir=$2
shift 2
. "$(dirname "$0")/common.sh" || exit 99
require_env "$name" "make check" HAPTIXD HX_MODELS HX_TEST_MODELS HX_BUILD HX_SRC "$@"
py=${HX_PYTHON:-/usr/bin/python3}
for m in pytest numpy google.protobuf; do
	if ! "$py" -c "import $m" 2>/dev/null; then
		echo "$name: $py cannot import $m: install python3-pytest," \
		    "python3-numpy and python3-protobuf (./quickstart check does)" >&2
		exit 1
	fi
done
PYTHONPATH="$HX_SRC/python:$HX_BUILD/python${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
cd "$HX_BUILD" || exit 99
exec timeout 300 "$py" -m pytest -q -p no:cacheprovider "$HX_SRC/$dir"
