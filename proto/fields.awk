# The one description of each message's fields, for C: reads
# haptix.proto and writes haptix_fields.h, an X-macro per message that
# every floor expands (the daemon's fills, libhaptix's decoder, hxctl's
# views, the MEX file), as MuJoCo's mjxmacro.h lists its arrays.
#
# For message Name, HX_FIELDS_Name(S, A, F, N, ctx) expands, in the
# proto's order:
#   S(ctx, Name, field, type)             a scalar: a number, bool, enum
#                                         or string
#   A(ctx, Name, field, type, count, per) a repeated field sized by the
#                                         scalar count: per values each
#   F(ctx, Name, field, type, n)          a repeated field of exactly n
#   N(ctx, Name, field, type, sub, Sub, count, per)
#                                         sized by the count of the
#                                         message field sub (of type Sub)
# type is the proto's (double, uint32, int32, bool, string, enum).
#
# A repeated field's size is written in brackets first thing in its
# comment: "// [nq]", "// [nbody x 6] force, torque", "// [4]",
# "// [model.njnt x 2]".  A
# message with any bracketed field must bracket every repeated scalar
# field; messages without any (requests of strings, nested messages) are
# listed with their scalars only, and say so with HX_FIELDS_PARTIAL_Name.
# Repeated and singular message fields are never listed: their messages
# have lists of their own.

function fail(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	failed = 1
	exit 1
}

function scalar_type(t) {
	if (t == "double" || t == "float" || t == "uint32" || t == "int32" ||
	    t == "uint64" || t == "int64" || t == "bool" || t == "string" ||
	    t == "bytes")
		return t
	if (t in enums)
		return "enum"
	return ""
}

function flush(   i) {
	if (msg == "")
		return
	if (sized > 0 && unsized != "")
		fail("message " msg ": repeated field " unsized \
		    " has no [size] while others do")
	printf "#define HX_FIELDS_%s(S, A, F, N, ctx)", msg
	for (i = 1; i <= nlines; i++)
		printf " \\\n\t%s", lines[i]
	printf "\n"
	if (sized == 0 && repeated > 0)
		printf "#define HX_FIELDS_PARTIAL_%s 1\n", msg
	printf "\n"
	msg = ""
}

BEGIN {
	# Enums may be declared after their use: collect them first.
	while ((getline l < ARGV[1]) > 0)
		if (l ~ /^ *enum [A-Za-z0-9_]+ *\{/) {
			split(l, e, /[ \t{]+/)
			enums[e[1] == "" ? e[3] : e[2]] = 1
		}
	close(ARGV[1])
	print "/* Generated from haptix.proto by proto/fields.awk: do not edit. */"
	print "#ifndef HX_HAPTIX_FIELDS_H"
	print "#define HX_HAPTIX_FIELDS_H"
	print ""
}

/^message [A-Za-z0-9_]+ *\{/ {
	flush()
	msg = $2
	nlines = 0
	sized = repeated = 0
	unsized = ""
	depth = 1
	split("", sub_type)
	next
}

msg != "" && /\{/ { depth++ }
msg != "" && /^\}/ { flush(); next }
msg != "" && /\}/ { depth--; next }

# A field of the message itself (nested blocks, oneofs' braces aside).
msg != "" && /^  [A-Za-z]/ && /=/ {
	line = $0
	comment = ""
	if ((c = index(line, "//")) > 0) {
		comment = substr(line, c + 2)
		line = substr(line, 1, c - 1)
	}
	sub(/;.*/, "", line)
	n = split(line, w, /[ \t=]+/)
	rep = w[2] == "repeated"
	type = rep ? w[3] : w[2]
	name = rep ? w[4] : w[3]
	if (w[2] == "oneof" || w[2] == "reserved" || w[2] == "option")
		next
	st = scalar_type(type)
	if (st == "") {
		if (!rep)
			sub_type[name] = type
		next
	}
	if (!rep) {
		lines[++nlines] = sprintf("S(ctx, %s, %s, %s)", msg, name, st)
		next
	}
	repeated++
	sub(/^ +/, "", comment)
	if (comment !~ /^\[/) {
		if (unsized == "")
			unsized = name
		next
	}
	size = substr(comment, 2, index(comment, "]") - 2)
	sized++
	if (size ~ /^[0-9]+$/) {
		lines[++nlines] = sprintf("F(ctx, %s, %s, %s, %s)", msg, name,
		    st, size)
		next
	}
	per = 1
	if (split(size, sz, / x /) == 2) {
		size = sz[1]
		per = sz[2]
	}
	if (size !~ /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/ ||
	    per !~ /^[0-9]+$/)
		fail("field " name ": size [" size "] is not [count], " \
		    "[count x N] or [message.count x N]")
	if ((d = index(size, ".")) > 0) {
		sm = substr(size, 1, d - 1)
		if (!(sm in sub_type))
			fail("field " name ": " sm " is not a message field " \
			    "before it")
		lines[++nlines] = sprintf("N(ctx, %s, %s, %s, %s, %s, %s, %s)",
		    msg, name, st, sm, sub_type[sm], substr(size, d + 1), per)
		next
	}
	lines[++nlines] = sprintf("A(ctx, %s, %s, %s, %s, %s)", msg, name, st,
	    size, per)
}

END {
	if (failed)
		exit 1
	flush()
	print "#endif"
}
