/*
 * MJCF read as MuJoCo 2.2 reads it (see mjcf.h): the grammar of the
 * TinyXML-2 that mj_loadXML parses with, in the C locale, with entities
 * processed and whitespace kept, written again here rather than linked,
 * since only the daemon's sim files may depend on MuJoCo's side.
 *
 * What matters is that every attribute value comes out byte for byte as
 * MuJoCo gets it, since modelrefs checks the file names MuJoCo will
 * open: values are decoded as TinyXML-2 decodes them, in place, its
 * quirks included (an entity it does not know leaves a stale byte behind
 * when the value has shrunk before it; a character reference stops at the
 * first ';' and reads its digits backwards; one that yields U+0000 ends
 * the value).  Where TinyXML-2 accepts more than this parser (a closing
 * tag ending in "/>", more than mjcf.h's limits), the model is refused;
 * where it refuses what this parser accepts, MuJoCo's own error follows.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "mjcf.h"
#include "mjcf_internal.h"

/* The state of one parse. */
struct lenient {
	const char *buf, *end; /* the document, to its first NUL */
	const char *p;         /* the next byte to read */
	unsigned long line;    /* p's line, from 1 */
	struct mjcf_doc *doc;
	struct mjcf_node *cur; /* the open element, NULL at the top */
	int depth;
	char reason[256];
	unsigned long reason_line, reason_col;
	struct lenient_text {
		char *buf;
		size_t len, cap;
	} text[MJCF_MAX_DEPTH + 1]; /* by depth */
};

static int lenient_fail(struct lenient *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));
static int lenient_space(char);
static int lenient_name_start(unsigned char);
static int lenient_name_char(unsigned char);
static const char *lenient_skip(struct lenient *, const char *);
static const char *lenient_find(struct lenient *, const char *, const char *);
static char *lenient_name(const char *, const char *, const char **);
static char *lenient_decode(const char *, size_t, int);
static const char *lenient_charref(const char *, char *, int *);
static void lenient_text(struct lenient *, const char *, size_t, int);
static int lenient_element(struct lenient *, const char *);
static int lenient_run(struct lenient *);

/* Stop the parse at at (NULL: at p): what went wrong and where. */
static int
lenient_fail(struct lenient *ls, const char *at, const char *fmt, ...)
{
	const char *s, *bol;
	va_list ap;

	if (ls->reason[0] != '\0')
		return -1;
	va_start(ap, fmt);
	vsnprintf(ls->reason, sizeof(ls->reason), fmt, ap);
	va_end(ap);
	if (at == NULL)
		at = ls->p;
	ls->reason_line = 1;
	for (s = bol = ls->buf; s < at; s++)
		if (*s == '\n') {
			ls->reason_line++;
			bol = s + 1;
		}
	ls->reason_col = (unsigned long)(at - bol) + 1;
	return -1;
}

/* TinyXML-2's whitespace: isspace() in the C locale, ASCII only. */
static int
lenient_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	    c == '\f';
}

/* A byte that may start a name: a letter, ':', '_' or any non-ASCII. */
static int
lenient_name_start(unsigned char c)
{
	return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    c == ':' || c == '_';
}

/* A byte that may go on with a name: those, digits, '.' and '-'. */
static int
lenient_name_char(unsigned char c)
{
	return lenient_name_start(c) || (c >= '0' && c <= '9') || c == '.' ||
	    c == '-';
}

/* Skip whitespace from s, counting lines. */
static const char *
lenient_skip(struct lenient *ls, const char *s)
{
	for (; s < ls->end && lenient_space(*s); s++)
		if (*s == '\n')
			ls->line++;
	return s;
}

/* The first tag at or after s, or NULL; lines before it are counted. */
static const char *
lenient_find(struct lenient *ls, const char *s, const char *tag)
{
	size_t n = strlen(tag);

	for (; s + n <= ls->end; s++) {
		if (memcmp(s, tag, n) == 0)
			return s;
		if (*s == '\n')
			ls->line++;
	}
	return NULL;
}

/*
 * The name at s, before end (malloc'd), *after past it; NULL if none
 * starts there.
 */
static char *
lenient_name(const char *s, const char *end, const char **after)
{
	const char *e = s;
	char *name;

	if (e >= end || !lenient_name_start((unsigned char)*e))
		return NULL;
	while (e < end && lenient_name_char((unsigned char)*e))
		e++;
	name = mjcf_alloc((size_t)(e - s) + 1);
	memcpy(name, s, (size_t)(e - s));
	name[e - s] = '\0';
	*after = e;
	return name;
}

/*
 * TinyXML-2's character reference at p ("&#"): its UTF-8 bytes in value
 * (*len of them, 0 for a code point past U+1FFFFF, or for "&#" ending
 * the value, which drops the '&') and the byte after it, or NULL when it
 * is none, and the '&' stands for itself.  The ';' is the
 * first after p, and the digits are read from it backwards to the 'x' or
 * '#', in unsigned int arithmetic that may wrap, as TinyXML-2 reads them.
 */
static const char *
lenient_charref(const char *p, char *value, int *len)
{
	static const unsigned char lead[5] = { 0, 0x00, 0xc0, 0xe0, 0xf0 };
	unsigned long ucs = 0;
	unsigned int mult = 1, digit;
	const char *q, *semi;
	int hex = p[2] == 'x', i;

	*len = 0;
	if (p[2] == '\0')
		return p + 1; /* "&#" at the end: the '&' goes */
	if (hex && p[3] == '\0')
		return NULL;
	if ((semi = strchr(p + (hex ? 3 : 2), ';')) == NULL)
		return NULL;
	for (q = semi - 1; *q != (hex ? 'x' : '#'); q--) {
		if (*q >= '0' && *q <= '9')
			digit = (unsigned int)(*q - '0');
		else if (hex && *q >= 'a' && *q <= 'f')
			digit = (unsigned int)(*q - 'a' + 10);
		else if (hex && *q >= 'A' && *q <= 'F')
			digit = (unsigned int)(*q - 'A' + 10);
		else
			return NULL;
		ucs += mult * digit;
		mult *= hex ? 16 : 10;
	}
	if (ucs < 0x80)
		*len = 1;
	else if (ucs < 0x800)
		*len = 2;
	else if (ucs < 0x10000)
		*len = 3;
	else if (ucs < 0x200000)
		*len = 4;
	for (i = *len - 1; i > 0; i--) {
		value[i] = (char)((ucs | 0x80) & 0xbf);
		ucs >>= 6;
	}
	if (*len > 0)
		value[0] = (char)(ucs | lead[*len]);
	return semi + 1;
}

/*
 * The value of n raw bytes as TinyXML-2 makes it (malloc'd): line ends
 * made LF, and with entities, the five named ones and character
 * references replaced, in place, as it does.
 */
static char *
lenient_decode(const char *raw, size_t n, int entities)
{
	static const struct {
		const char *name;
		size_t len;
		char c;
	} named[] = {
		{ "quot", 4, '"' },
		{ "amp", 3, '&' },
		{ "apos", 4, '\'' },
		{ "lt", 2, '<' },
		{ "gt", 2, '>' },
	};
	char *buf = mjcf_alloc(n + 1), *p, *q, ref[4];
	const char *next;
	size_t i;
	int len;

	memcpy(buf, raw, n);
	buf[n] = '\0';
	for (p = q = buf; *p != '\0';) {
		if (*p == '\r' || *p == '\n') {
			p += p[1] == (*p == '\r' ? '\n' : '\r') ? 2 : 1;
			*q++ = '\n';
		} else if (entities && *p == '&' && p[1] == '#') {
			if ((next = lenient_charref(p, ref, &len)) == NULL)
				*q++ = *p++;
			else {
				memcpy(q, ref, (size_t)len);
				q += len;
				p = buf + (next - buf);
			}
		} else if (entities && *p == '&') {
			for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
				if (strncmp(p + 1, named[i].name,
					named[i].len) == 0 &&
				    p[named[i].len + 1] == ';')
					break;
			if (i < sizeof(named) / sizeof(named[0])) {
				*q++ = named[i].c;
				p += named[i].len + 2;
			} else {
				/* Both move on: q keeps what it held. */
				p++;
				q++;
			}
		} else
			*q++ = *p++;
	}
	*q = '\0';
	return buf;
}

/* Gather n bytes of text (decoded) for the open element, if any. */
static void
lenient_text(struct lenient *ls, const char *s, size_t n, int entities)
{
	struct lenient_text *t = &ls->text[ls->depth];
	char *v, *b;
	size_t k;

	if (ls->cur == NULL || n == 0)
		return;
	v = lenient_decode(s, n, entities);
	if ((k = strlen(v)) > t->cap - t->len) {
		t->cap = t->len + k > 2 * t->cap ? t->len + k : 2 * t->cap;
		if ((b = realloc(t->buf, t->cap)) == NULL)
			fatal("out of memory");
		t->buf = b;
	}
	if (k > 0)
		memcpy(t->buf + t->len, v, k);
	t->len += k;
	free(v);
}

/*
 * A tag at lt ('<'): an element opens, opens and closes, or closes.
 * Returns 0, 1 when the root has closed (the rest is never read), or -1.
 */
static int
lenient_element(struct lenient *ls, const char *lt)
{
	struct mjcf_node *n;
	const char *s, *v;
	char *name, *aname, *value;
	unsigned long line = ls->line;
	int closing, empty = 0;
	size_t i;

	s = lenient_skip(ls, lt + 1);
	if ((closing = s < ls->end && *s == '/'))
		s++;
	if (s >= ls->end || (name = lenient_name(s, ls->end, &s)) == NULL)
		return lenient_fail(ls, s, "a tag without a name");
	n = mjcf_node_new(name);
	free(name);
	n->file = ls->doc->files[0];
	n->line = line;
	for (;;) {
		s = lenient_skip(ls, s);
		if (s >= ls->end) {
			lenient_fail(ls, lt, "<%s> is not closed", n->name);
			goto fail;
		}
		if (*s == '>') {
			s++;
			break;
		}
		if (*s == '/' && s + 1 < ls->end && s[1] == '>') {
			empty = 1;
			s += 2;
			break;
		}
		/* No whitespace is needed before a name: pos="0"condim="4". */
		if ((aname = lenient_name(s, ls->end, &s)) == NULL) {
			lenient_fail(
			    ls, s, "not an attribute in <%s>", n->name);
			goto fail;
		}
		s = lenient_skip(ls, s);
		if (s >= ls->end || *s != '=') {
			lenient_fail(ls, s, "attribute %s without =", aname);
			free(aname);
			goto fail;
		}
		s = lenient_skip(ls, s + 1);
		if (s >= ls->end || (*s != '"' && *s != '\'') ||
		    (v = memchr(s + 1, *s, (size_t)(ls->end - s - 1))) ==
			NULL) {
			lenient_fail(
			    ls, s, "attribute %s without a value", aname);
			free(aname);
			goto fail;
		}
		for (i = 0; i < n->nattrs; i++)
			if (strcmp(n->attrs[i].name, aname) == 0)
				break;
		if (i < n->nattrs) {
			lenient_fail(ls, s, "attribute %s given twice", aname);
			free(aname);
			goto fail;
		}
		value = lenient_decode(s + 1, (size_t)(v - s - 1), 1);
		for (; s < v; s++)
			if (*s == '\n')
				ls->line++;
		s = v + 1;
		mjcf_attr_append(n, aname, value);
		free(aname);
		free(value);
	}
	ls->p = s;
	if (closing) {
		/* TinyXML-2 takes "</a/>" for "<a/>": too odd to follow. */
		if (empty) {
			lenient_fail(ls, lt, "a closing tag ending in />");
			goto fail;
		}
		if (ls->cur == NULL) {
			/* TinyXML-2 reads no further; the root, if any, is. */
			mjcf_subtree_free(n);
			return 1;
		}
		if (strcmp(ls->cur->name, n->name) != 0) {
			lenient_fail(ls, lt, "</%s> closes <%s>", n->name,
			    ls->cur->name);
			goto fail;
		}
		mjcf_subtree_free(n);
		mjcf_text_keep(
		    ls->cur, ls->text[ls->depth].buf, ls->text[ls->depth].len);
		ls->cur = ls->cur->parent;
		ls->depth--;
		return ls->cur == NULL ? 1 : 0;
	}
	if (ls->depth >= MJCF_MAX_DEPTH) {
		lenient_fail(ls, lt, "elements nested more than %d deep",
		    MJCF_MAX_DEPTH);
		goto fail;
	}
	if (ls->doc->nnodes >= MJCF_MAX_NODES) {
		lenient_fail(ls, lt, "more than %d elements", MJCF_MAX_NODES);
		goto fail;
	}
	if (ls->cur == NULL)
		ls->doc->root = n;
	else {
		n->parent = ls->cur;
		TAILQ_INSERT_TAIL(&ls->cur->children, n, entry);
	}
	ls->doc->nnodes++;
	if (empty)
		return ls->cur == NULL ? 1 : 0;
	ls->cur = n;
	ls->depth++;
	ls->text[ls->depth].len = 0;
	return 0;
fail:
	mjcf_subtree_free(n);
	return -1;
}

/*
 * The document from p on: TinyXML-2's nodes in turn, at the top and in
 * the open element.  Returns 0 once the root has closed, or -1.
 */
static int
lenient_run(struct lenient *ls)
{
	const char *s, *e;
	int rc;

	for (;;) {
		s = lenient_skip(ls, ls->p);
		if (s >= ls->end) {
			if (ls->cur != NULL)
				return lenient_fail(ls, s,
				    "the document ends inside <%s>",
				    ls->cur->name);
			return lenient_fail(ls, s, "no root element");
		}
		if (*s != '<') {
			/* Text: up to the next tag, whitespace and all. */
			if ((e = memchr(s, '<', (size_t)(ls->end - s))) == NULL)
				return lenient_fail(
				    ls, s, "text without a tag after it");
			lenient_text(ls, ls->p, (size_t)(e - ls->p), 1);
			for (; s < e; s++)
				if (*s == '\n')
					ls->line++;
			ls->p = e;
			continue;
		}
		if ((size_t)(ls->end - s) >= 4 && memcmp(s, "<!--", 4) == 0) {
			if ((e = lenient_find(ls, s + 4, "-->")) == NULL)
				return lenient_fail(
				    ls, s, "%s", "an unclosed comment");
			ls->p = e + 3;
		} else if ((size_t)(ls->end - s) >= 9 &&
		    memcmp(s, "<![CDATA[", 9) == 0) {
			if ((e = lenient_find(ls, s + 9, "]]>")) == NULL)
				return lenient_fail(
				    ls, s, "%s", "an unclosed CDATA section");
			lenient_text(ls, s + 9, (size_t)(e - s - 9), 0);
			ls->p = e + 3;
		} else if ((size_t)(ls->end - s) >= 2 &&
		    (memcmp(s, "<?", 2) == 0 || memcmp(s, "<!", 2) == 0)) {
			/*
			 * A declaration, or what TinyXML-2 calls unknown (a
			 * DOCTYPE among them): skipped, its entities never
			 * declared, as MuJoCo skips them.
			 */
			if ((e = lenient_find(
				 ls, s + 2, s[1] == '?' ? "?>" : ">")) == NULL)
				return lenient_fail(
				    ls, s, "an unclosed <%c", s[1]);
			ls->p = e + (s[1] == '?' ? 2 : 1);
		} else if ((rc = lenient_element(ls, s)) == -1)
			return -1;
		else if (rc == 1)
			return ls->doc->root != NULL ?
			    0 :
			    lenient_fail(ls, s, "no root element");
	}
}

struct mjcf_doc *
mjcf_parse_buffer_lenient(
    const void *buf, size_t len, const char *name, char *err, size_t errlen)
{
	struct lenient ls;
	const char *nul;
	struct mjcf_doc *doc;
	int i, rc;

	if (name == NULL)
		name = "inline";
	if (!mjcf_size_ok(name, len, err, errlen))
		return NULL;
	memset(&ls, 0, sizeof(ls));
	/* TinyXML-2 reads a C string: nothing after a NUL counts. */
	ls.buf = buf;
	ls.end = (nul = memchr(buf, '\0', len)) != NULL ? nul : ls.buf + len;
	ls.line = 1;
	ls.doc = mjcf_doc_new(name);
	ls.p = lenient_skip(&ls, ls.buf);
	if (ls.end - ls.p >= 3 && memcmp(ls.p, "\xef\xbb\xbf", 3) == 0)
		ls.p += 3;
	rc = lenient_run(&ls);
	for (i = 0; i <= MJCF_MAX_DEPTH; i++)
		free(ls.text[i].buf);
	doc = ls.doc;
	if (rc != 0) {
		snprintf(err, errlen, "%s: line %lu, column %lu: %s", name,
		    ls.reason_line, ls.reason_col, ls.reason);
		mjcf_free(doc);
		return NULL;
	}
	return doc;
}

struct mjcf_doc *
mjcf_parse_file_lenient(const char *path, char *err, size_t errlen)
{
	struct mjcf_doc *doc;
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			if (cap > MJCF_MAX_BYTES) {
				snprintf(err, errlen,
				    "%s: more than the %u bytes allowed", path,
				    MJCF_MAX_BYTES);
				goto fail;
			}
			cap = cap == 0 ? 65536 : 2 * cap;
			if ((nb = realloc(buf, cap)) == NULL)
				fatal("out of memory");
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	doc = mjcf_parse_buffer_lenient(buf, len, path, err, errlen);
	free(buf);
	return doc;
fail:
	close(fd);
	free(buf);
	return NULL;
}
