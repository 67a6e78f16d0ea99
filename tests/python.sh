#!/bin/sh
# The Python package's tests (python/tests) through real daemons
# (conftest.py starts them); see pytest.sh.  Run by make check.
exec "$(dirname "$0")/pytest.sh" python.sh python/tests HXPLAY
