#!/bin/sh
# The symbols libhaptix exports: every function its public headers
# declare (hx_, hxd_, hxs_ and mj_ names; OSRF's dialect's hxosrf_ names
# through its macros), one a line, sorted.  The build links the library
# with this list (-export-symbols), so that a call declared in a header
# is exported without a list kept by hand, and nothing else is.
#
#	exports.sh HEADER...
for h in "$@"; do
	sed -n -e '/^[[:space:]]*\(\/\*\|\*\|#\|typedef\)/!s/^[^(;/]*[^A-Za-z0-9_]\(hxd\{0,1\}_[A-Za-z0-9_]*\|hxs_[A-Za-z0-9_]*\|mj_[A-Za-z0-9_]*\)[[:space:]]*(.*/\1/p' \
	    -e 's/^#define[[:space:]]\{1,\}hx_[A-Za-z0-9_]*[[:space:]]\{1,\}\(hxosrf_[A-Za-z0-9_]*\)[[:space:]]*$/\1/p' \
	    "$h" || exit 1
done | LC_ALL=C sort -u
