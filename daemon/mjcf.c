/* The MJCF element tree: see mjcf.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>

#include "log.h"
#include "mjcf.h"
#include "mjcf_internal.h"

/* Input is handed to expat in pieces of this size. */
#define MJCF_CHUNK (64u << 10)

/* Character data gathered for one open element. */
struct mjcf_text {
	char *buf;
	size_t len, cap;
};

/* The state of one parse. */
struct mjcf_parser {
	XML_Parser xp;
	struct mjcf_doc *doc;
	const char *file; /* doc->files[0] */
	struct mjcf_node *cur;
	int depth;
	struct mjcf_text text[MJCF_MAX_DEPTH + 1]; /* by depth */
	char reason[256]; /* why we stopped expat, if we did */
	unsigned long reason_line, reason_col;
};

/* A growing output buffer. */
struct mjcf_out {
	char *buf;
	size_t len, cap;
	unsigned long line; /* the line being written, from 1 */
	const char *keep;   /* lines kept for nodes of this file, or NULL */
};

static char *mjcf_strdup(const char *);
static int mjcf_valid_name(const char *);
static int mjcf_valid_text(const char *);
static void mjcf_vfail(struct mjcf_parser *, const char *, va_list)
    __attribute__((format(printf, 2, 0)));
static void mjcf_fail(struct mjcf_parser *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static void mjcf_stop(struct mjcf_parser *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int mjcf_height(const struct mjcf_node *);
static void XMLCALL mjcf_on_start(void *, const XML_Char *, const XML_Char **);
static void XMLCALL mjcf_on_end(void *, const XML_Char *);
static void XMLCALL mjcf_on_text(void *, const XML_Char *, int);
static void XMLCALL mjcf_on_doctype(
    void *, const XML_Char *, const XML_Char *, const XML_Char *, int);
static XML_Parser mjcf_parser_begin(struct mjcf_parser *, const char *);
static struct mjcf_doc *mjcf_parser_end(
    struct mjcf_parser *, int, char *, size_t);
static void mjcf_put(struct mjcf_out *, const char *, size_t);
static void mjcf_puts(struct mjcf_out *, const char *);
static void mjcf_put_escaped(struct mjcf_out *, const char *, int);
static void mjcf_put_open(struct mjcf_out *, const struct mjcf_node *, int);
static void mjcf_put_close(struct mjcf_out *, const struct mjcf_node *, int);
static int mjcf_write_out(
    const struct mjcf_doc *, const char *, char **, size_t *);

void *
mjcf_alloc(size_t n)
{
	void *p = malloc(n > 0 ? n : 1);

	if (p == NULL)
		fatal("out of memory (%zu bytes for an MJCF tree)", n);
	return p;
}

/* strdup, or exit. */
static char *
mjcf_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(mjcf_alloc(n), s, n);
}

struct mjcf_doc *
mjcf_doc_new(const char *path)
{
	struct mjcf_doc *doc = mjcf_alloc(sizeof(*doc));

	memset(doc, 0, sizeof(*doc));
	doc->path = mjcf_strdup(path);
	doc->files = mjcf_alloc(sizeof(*doc->files));
	doc->files[0] = mjcf_strdup(path);
	doc->nfiles = 1;
	return doc;
}

struct mjcf_node *
mjcf_node_new(const char *name)
{
	struct mjcf_node *n = mjcf_alloc(sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->name = mjcf_strdup(name);
	TAILQ_INIT(&n->children);
	return n;
}

/* Children first, without recursion. */
size_t
mjcf_subtree_free(struct mjcf_node *n)
{
	struct mjcf_node *top = n, *c, *p;
	size_t i, count = 0;

	while (n != NULL) {
		if ((c = TAILQ_FIRST(&n->children)) != NULL) {
			n = c;
			continue;
		}
		p = n == top ? NULL : n->parent;
		if (p != NULL)
			TAILQ_REMOVE(&p->children, n, entry);
		for (i = 0; i < n->nattrs; i++) {
			free(n->attrs[i].name);
			free(n->attrs[i].value);
		}
		free(n->attrs);
		free(n->text);
		free(n->name);
		free(n);
		count++;
		n = p;
	}
	return count;
}

void
mjcf_attr_append(struct mjcf_node *n, const char *name, const char *value)
{
	struct mjcf_attr *a;

	if (n->nattrs == n->attrcap) {
		n->attrcap = n->attrcap > 0 ? 2 * n->attrcap : 4;
		a = realloc(n->attrs, n->attrcap * sizeof(*a));
		if (a == NULL)
			fatal("out of memory");
		n->attrs = a;
	}
	n->attrs[n->nattrs].name = mjcf_strdup(name);
	n->attrs[n->nattrs].value = mjcf_strdup(value);
	n->nattrs++;
}

/*
 * Return 1 if s is an XML name: ASCII letters, digits, '_', ':', '.', '-'
 * (not leading a name) or any byte of a UTF-8 sequence.
 */
static int
mjcf_valid_name(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == '\0' || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-')
		return 0;
	for (; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == ':' ||
		    *p == '.' || *p == '-' || *p >= 0x80)
			continue;
		return 0;
	}
	return 1;
}

/* Return 1 if s has no control character other than tab, LF and CR. */
static int
mjcf_valid_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
			return 0;
	return 1;
}

/* Keep the first reason for failing and where the parser was. */
static void
mjcf_vfail(struct mjcf_parser *ps, const char *fmt, va_list ap)
{
	if (ps->reason[0] != '\0')
		return;
	vsnprintf(ps->reason, sizeof(ps->reason), fmt, ap);
	ps->reason_line = XML_GetCurrentLineNumber(ps->xp);
	ps->reason_col = XML_GetCurrentColumnNumber(ps->xp) + 1;
}

/* Fail the parse outside expat's handlers. */
static void
mjcf_fail(struct mjcf_parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mjcf_vfail(ps, fmt, ap);
	va_end(ap);
}

/* Stop expat from inside a handler, for a reason of our own. */
static void
mjcf_stop(struct mjcf_parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mjcf_vfail(ps, fmt, ap);
	va_end(ap);
	XML_StopParser(ps->xp, XML_FALSE);
}

/* expat: an element opens; attrs alternate names and values. */
static void XMLCALL
mjcf_on_start(void *arg, const XML_Char *name, const XML_Char **attrs)
{
	struct mjcf_parser *ps = arg;
	struct mjcf_node *n;
	size_t i;

	if (ps->reason[0] != '\0')
		return;
	if (ps->depth >= MJCF_MAX_DEPTH) {
		mjcf_stop(
		    ps, "elements nested more than %d deep", MJCF_MAX_DEPTH);
		return;
	}
	if (ps->doc->nnodes >= MJCF_MAX_NODES) {
		mjcf_stop(ps, "more than %d elements", MJCF_MAX_NODES);
		return;
	}
	n = mjcf_node_new(name);
	n->file = ps->file;
	n->line = XML_GetCurrentLineNumber(ps->xp);
	for (i = 0; attrs[i] != NULL; i += 2)
		mjcf_attr_append(n, attrs[i], attrs[i + 1]);
	if (ps->cur == NULL) {
		ps->doc->root = n;
	} else {
		n->parent = ps->cur;
		TAILQ_INSERT_TAIL(&ps->cur->children, n, entry);
	}
	ps->doc->nnodes++;
	ps->cur = n;
	ps->depth++;
	ps->text[ps->depth].len = 0;
}

void
mjcf_text_keep(struct mjcf_node *n, const char *buf, size_t len)
{
	size_t i, j;

	for (i = 0; i < len && strchr(" \t\r\n", buf[i]) != NULL; i++)
		continue;
	if (i == len)
		return;
	j = len;
	if (TAILQ_EMPTY(&n->children))
		i = 0;
	else
		while (strchr(" \t\r\n", buf[j - 1]) != NULL)
			j--;
	free(n->text);
	n->text = mjcf_alloc(j - i + 1);
	memcpy(n->text, buf + i, j - i);
	n->text[j - i] = '\0';
}

/* expat: an element closes; keep its text. */
static void XMLCALL
mjcf_on_end(void *arg, const XML_Char *name)
{
	struct mjcf_parser *ps = arg;
	struct mjcf_text *t;

	if (ps->reason[0] != '\0' || ps->cur == NULL)
		return;
	t = &ps->text[ps->depth];
	mjcf_text_keep(ps->cur, t->buf, t->len);
	ps->cur = ps->cur->parent;
	ps->depth--;
}

/* expat: character data, in pieces, for the innermost open element. */
static void XMLCALL
mjcf_on_text(void *arg, const XML_Char *s, int len)
{
	struct mjcf_parser *ps = arg;
	struct mjcf_text *t;
	char *b;

	if (ps->reason[0] != '\0' || ps->depth == 0 || len <= 0)
		return;
	t = &ps->text[ps->depth];
	if (t->len + (size_t)len > t->cap) {
		t->cap = t->len + (size_t)len > 2 * t->cap ?
		    t->len + (size_t)len :
		    2 * t->cap;
		if ((b = realloc(t->buf, t->cap)) == NULL)
			fatal("out of memory");
		t->buf = b;
	}
	memcpy(t->buf + t->len, s, (size_t)len);
	t->len += (size_t)len;
}

/*
 * expat: a DOCTYPE.  MJCF has no use for one, and refusing it refuses
 * entity declarations (billion laughs) and external DTDs at once.
 */
static void XMLCALL
mjcf_on_doctype(void *arg, const XML_Char *name, const XML_Char *sysid,
    const XML_Char *pubid, int internal)
{
	mjcf_stop(arg, "%s", "DOCTYPE declarations are not allowed");
}

/* Set up a parse of the file called path. */
static XML_Parser
mjcf_parser_begin(struct mjcf_parser *ps, const char *path)
{
	memset(ps, 0, sizeof(*ps));
	ps->xp = XML_ParserCreate(NULL);
	if (ps->xp == NULL)
		fatal("out of memory (XML parser)");
	ps->doc = mjcf_doc_new(path);
	ps->file = ps->doc->files[0];
	XML_SetUserData(ps->xp, ps);
	XML_SetElementHandler(ps->xp, mjcf_on_start, mjcf_on_end);
	XML_SetCharacterDataHandler(ps->xp, mjcf_on_text);
	XML_SetStartDoctypeDeclHandler(ps->xp, mjcf_on_doctype);
	/* Never read anything but the document itself. */
	XML_SetParamEntityParsing(ps->xp, XML_PARAM_ENTITY_PARSING_NEVER);
	return ps->xp;
}

int
mjcf_size_ok(const char *name, size_t len, char *err, size_t errlen)
{
	if (len <= MJCF_MAX_BYTES)
		return 1;
	snprintf(err, errlen, "%s: %zu bytes is more than the %u allowed",
	    name != NULL ? name : "inline", len, MJCF_MAX_BYTES);
	return 0;
}

/*
 * Finish a parse that ended with expat status ok: return the document, or
 * NULL with the reason (ours, else expat's) in err.
 */
static struct mjcf_doc *
mjcf_parser_end(struct mjcf_parser *ps, int ok, char *err, size_t errlen)
{
	struct mjcf_doc *doc = ps->doc;
	int i;

	if (!ok) {
		if (ps->reason[0] != '\0')
			snprintf(err, errlen, "%s: line %lu, column %lu: %s",
			    doc->path, ps->reason_line, ps->reason_col,
			    ps->reason);
		else
			snprintf(err, errlen, "%s: line %lu, column %lu: %s",
			    doc->path,
			    (unsigned long)XML_GetCurrentLineNumber(ps->xp),
			    (unsigned long)XML_GetCurrentColumnNumber(ps->xp) +
				1,
			    XML_ErrorString(XML_GetErrorCode(ps->xp)));
		mjcf_free(doc);
		doc = NULL;
	}
	for (i = 0; i <= MJCF_MAX_DEPTH; i++)
		free(ps->text[i].buf);
	XML_ParserFree(ps->xp);
	return doc;
}

struct mjcf_doc *
mjcf_parse_buffer(
    const void *buf, size_t len, const char *name, char *err, size_t errlen)
{
	struct mjcf_parser ps;
	XML_Parser xp;
	const char *p = buf;
	size_t off = 0, n;
	int ok = 1;

	if (name == NULL)
		name = "inline";
	if (!mjcf_size_ok(name, len, err, errlen))
		return NULL;
	xp = mjcf_parser_begin(&ps, name);
	do {
		n = len - off < MJCF_CHUNK ? len - off : MJCF_CHUNK;
		if (XML_Parse(xp, p + off, (int)n, off + n == len) !=
		    XML_STATUS_OK)
			ok = 0;
		off += n;
	} while (ok && off < len);
	return mjcf_parser_end(&ps, ok, err, errlen);
}

struct mjcf_doc *
mjcf_parse_file(const char *path, char *err, size_t errlen)
{
	struct mjcf_parser ps;
	XML_Parser xp;
	size_t total = 0;
	ssize_t n;
	void *b;
	int fd, ok = 1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	xp = mjcf_parser_begin(&ps, path);
	for (;;) {
		if ((b = XML_GetBuffer(xp, MJCF_CHUNK)) == NULL)
			fatal("out of memory (XML buffer)");
		n = read(fd, b, MJCF_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			mjcf_fail(&ps, "%s", strerror(errno));
			ok = 0;
			break;
		}
		if ((total += (size_t)n) > MJCF_MAX_BYTES) {
			mjcf_fail(&ps, "more than the %u bytes allowed",
			    MJCF_MAX_BYTES);
			ok = 0;
			break;
		}
		if (XML_ParseBuffer(xp, (int)n, n == 0) != XML_STATUS_OK) {
			ok = 0;
			break;
		}
		if (n == 0)
			break;
	}
	close(fd);
	return mjcf_parser_end(&ps, ok, err, errlen);
}

struct mjcf_doc *
mjcf_create(const char *root_name)
{
	struct mjcf_doc *doc;

	if (!mjcf_valid_name(root_name))
		return NULL;
	doc = mjcf_doc_new("");
	doc->root = mjcf_node_new(root_name);
	doc->nnodes = 1;
	return doc;
}

void
mjcf_free(struct mjcf_doc *doc)
{
	size_t i;

	if (doc == NULL)
		return;
	if (doc->root != NULL)
		mjcf_subtree_free(doc->root);
	for (i = 0; i < doc->nfiles; i++)
		free(doc->files[i]);
	free(doc->files);
	free(doc->path);
	free(doc);
}

struct mjcf_node *
mjcf_root(const struct mjcf_doc *doc)
{
	return doc->root;
}

const char *
mjcf_path(const struct mjcf_doc *doc)
{
	return doc->path;
}

size_t
mjcf_node_count(const struct mjcf_doc *doc)
{
	return doc->nnodes;
}

const char *
mjcf_attr_get(const struct mjcf_node *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->nattrs; i++)
		if (strcmp(n->attrs[i].name, name) == 0)
			return n->attrs[i].value;
	return NULL;
}

int
mjcf_attr_set(struct mjcf_node *n, const char *name, const char *value)
{
	size_t i;

	if (!mjcf_valid_name(name) || !mjcf_valid_text(value))
		return -1;
	for (i = 0; i < n->nattrs; i++) {
		if (strcmp(n->attrs[i].name, name) == 0) {
			free(n->attrs[i].value);
			n->attrs[i].value = mjcf_strdup(value);
			return 0;
		}
	}
	mjcf_attr_append(n, name, value);
	return 0;
}

int
mjcf_attr_remove(struct mjcf_node *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->nattrs; i++) {
		if (strcmp(n->attrs[i].name, name) != 0)
			continue;
		free(n->attrs[i].name);
		free(n->attrs[i].value);
		memmove(&n->attrs[i], &n->attrs[i + 1],
		    (n->nattrs - i - 1) * sizeof(n->attrs[0]));
		n->nattrs--;
		return 0;
	}
	return -1;
}

struct mjcf_node *
mjcf_first_child(const struct mjcf_node *n, const char *name)
{
	struct mjcf_node *c;

	for (c = TAILQ_FIRST(&n->children); c != NULL; c = TAILQ_NEXT(c, entry))
		if (name == NULL || strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

struct mjcf_node *
mjcf_next_sibling(const struct mjcf_node *n, const char *name)
{
	struct mjcf_node *c;

	for (c = TAILQ_NEXT(n, entry); c != NULL; c = TAILQ_NEXT(c, entry))
		if (name == NULL || strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

struct mjcf_node *
mjcf_walk(const struct mjcf_node *top, const struct mjcf_node *n)
{
	struct mjcf_node *next;

	if ((next = TAILQ_FIRST(&n->children)) != NULL)
		return next;
	for (; n != top && n != NULL; n = n->parent)
		if ((next = TAILQ_NEXT(n, entry)) != NULL)
			return next;
	return NULL;
}

int
mjcf_depth(const struct mjcf_node *n)
{
	int d = 0;

	for (; n != NULL; n = n->parent)
		d++;
	return d;
}

struct mjcf_node *
mjcf_node_add(struct mjcf_doc *doc, struct mjcf_node *parent, const char *name)
{
	struct mjcf_node *n;

	if (!mjcf_valid_name(name) || doc->nnodes >= MJCF_MAX_NODES ||
	    mjcf_depth(parent) >= MJCF_MAX_DEPTH)
		return NULL;
	n = mjcf_node_new(name);
	n->parent = parent;
	TAILQ_INSERT_TAIL(&parent->children, n, entry);
	doc->nnodes++;
	return n;
}

void
mjcf_node_delete(struct mjcf_doc *doc, struct mjcf_node *n)
{
	if (n->parent == NULL)
		return;
	TAILQ_REMOVE(&n->parent->children, n, entry);
	doc->nnodes -= mjcf_subtree_free(n);
}

int
mjcf_node_set_text(struct mjcf_node *n, const char *text)
{
	if (text != NULL && !mjcf_valid_text(text))
		return -1;
	free(n->text);
	n->text = text != NULL ? mjcf_strdup(text) : NULL;
	return 0;
}

/* The depth of the deepest element below top, counting top as 1. */
static int
mjcf_height(const struct mjcf_node *top)
{
	const struct mjcf_node *n = top, *next;
	int d = 1, h = 1;

	for (;;) {
		if ((next = TAILQ_FIRST(&n->children)) != NULL) {
			n = next;
			if (++d > h)
				h = d;
			continue;
		}
		while (n != top && TAILQ_NEXT(n, entry) == NULL) {
			n = n->parent;
			d--;
		}
		if (n == top)
			return h;
		n = TAILQ_NEXT(n, entry);
	}
}

int
mjcf_node_replace(struct mjcf_doc *doc, struct mjcf_node *n,
    struct mjcf_doc *from, struct mjcf_node **first, char *err, size_t errlen)
{
	struct mjcf_node *top = from->root, *c, *next;
	char **files;
	size_t moved, i;

	*first = NULL;
	if (n->parent == NULL || top == NULL) {
		snprintf(err, errlen, "%s",
		    n->parent == NULL ? "the root cannot be replaced" :
					"the replacement has no root");
		mjcf_free(from);
		return -1;
	}
	/* from's root stays behind: its children take n's depth. */
	moved = from->nnodes - 1;
	if (mjcf_depth(n) + mjcf_height(top) - 2 > MJCF_MAX_DEPTH) {
		snprintf(err, errlen,
		    "elements would be nested more than %d deep",
		    MJCF_MAX_DEPTH);
		mjcf_free(from);
		return -1;
	}
	if (doc->nnodes - 1 + moved > MJCF_MAX_NODES) {
		snprintf(err, errlen, "there would be more than %d elements",
		    MJCF_MAX_NODES);
		mjcf_free(from);
		return -1;
	}
	for (c = TAILQ_FIRST(&top->children); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		TAILQ_REMOVE(&top->children, c, entry);
		TAILQ_INSERT_BEFORE(n, c, entry);
		c->parent = n->parent;
		if (*first == NULL)
			*first = c;
	}
	/* The moved nodes point at from's file names: take them over. */
	files = realloc(
	    doc->files, (doc->nfiles + from->nfiles) * sizeof(*files));
	if (files == NULL)
		fatal("out of memory");
	doc->files = files;
	for (i = 0; i < from->nfiles; i++)
		doc->files[doc->nfiles++] = from->files[i];
	from->nfiles = 0;
	mjcf_free(from);
	doc->nnodes += moved;
	mjcf_node_delete(doc, n);
	return 0;
}

/* Append len bytes to the output. */
static void
mjcf_put(struct mjcf_out *o, const char *s, size_t len)
{
	const char *end;
	char *b;

	if (o->len + len + 1 > o->cap) {
		o->cap = o->len + len + 1 > 2 * o->cap ? o->len + len + 1 :
							 2 * o->cap;
		if ((b = realloc(o->buf, o->cap)) == NULL)
			fatal("out of memory");
		o->buf = b;
	}
	memcpy(o->buf + o->len, s, len);
	o->len += len;
	o->buf[o->len] = '\0';
	for (end = s + len; (s = memchr(s, '\n', (size_t)(end - s))) != NULL;
	     s++)
		o->line++;
}

/* Append a string to the output. */
static void
mjcf_puts(struct mjcf_out *o, const char *s)
{
	mjcf_put(o, s, strlen(s));
}

/*
 * Append s escaped for XML.  In attribute values, quotes and whitespace
 * other than spaces are escaped too, so that they survive the attribute
 * value normalization of the next parse.
 */
static void
mjcf_put_escaped(struct mjcf_out *o, const char *s, int attr)
{
	const char *run = s, *rep;

	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '\r':
			rep = "&#13;";
			break;
		case '"':
			rep = attr ? "&quot;" : NULL;
			break;
		case '\t':
			rep = attr ? "&#9;" : NULL;
			break;
		case '\n':
			rep = attr ? "&#10;" : NULL;
			break;
		default:
			rep = NULL;
			break;
		}
		if (rep == NULL)
			continue;
		mjcf_put(o, run, (size_t)(s - run));
		mjcf_puts(o, rep);
		run = s + 1;
	}
	mjcf_put(o, run, (size_t)(s - run));
}

/*
 * Append n's start tag at depth d, then its text, if any.  Keeping lines,
 * a node of the kept file starts on its source line; others follow on.
 */
static void
mjcf_put_open(struct mjcf_out *o, const struct mjcf_node *n, int d)
{
	size_t i;
	int k, indent = o->keep == NULL;

	if (o->keep != NULL && n->file == o->keep && n->line > o->line) {
		while (o->line < n->line)
			mjcf_puts(o, "\n");
		indent = 1;
	}
	for (k = 0; indent && k < d; k++)
		mjcf_puts(o, "  ");
	mjcf_puts(o, "<");
	mjcf_puts(o, n->name);
	for (i = 0; i < n->nattrs; i++) {
		mjcf_puts(o, " ");
		mjcf_puts(o, n->attrs[i].name);
		mjcf_puts(o, "=\"");
		mjcf_put_escaped(o, n->attrs[i].value, 1);
		mjcf_puts(o, "\"");
	}
	if (TAILQ_EMPTY(&n->children) && n->text == NULL) {
		mjcf_puts(o, o->keep != NULL ? "/>" : "/>\n");
		return;
	}
	mjcf_puts(o, ">");
	if (n->text != NULL)
		mjcf_put_escaped(o, n->text, 0);
	if (!TAILQ_EMPTY(&n->children) && o->keep == NULL)
		mjcf_puts(o, "\n");
}

/* Append n's end tag at depth d (indented if it had children). */
static void
mjcf_put_close(struct mjcf_out *o, const struct mjcf_node *n, int d)
{
	int k;

	if (TAILQ_EMPTY(&n->children) && n->text == NULL)
		return;
	if (!TAILQ_EMPTY(&n->children) && o->keep == NULL)
		for (k = 0; k < d; k++)
			mjcf_puts(o, "  ");
	mjcf_puts(o, "</");
	mjcf_puts(o, n->name);
	mjcf_puts(o, o->keep != NULL ? ">" : ">\n");
}

/* Write doc, keeping the lines of nodes from file keep (NULL: none). */
static int
mjcf_write_out(
    const struct mjcf_doc *doc, const char *keep, char **buf, size_t *len)
{
	struct mjcf_out o = { NULL, 0, 0, 1, keep };
	const struct mjcf_node *n = doc->root, *next;
	int d = 0;

	*buf = NULL;
	*len = 0;
	if (n == NULL)
		return -1;
	mjcf_put(&o, "", 0);
	while (n != NULL) {
		mjcf_put_open(&o, n, d);
		if ((next = TAILQ_FIRST(&n->children)) != NULL) {
			n = next;
			d++;
			continue;
		}
		/* Close n and every ancestor it was the last child of. */
		for (;;) {
			mjcf_put_close(&o, n, d);
			if (n == doc->root) {
				n = NULL;
				break;
			}
			if ((next = TAILQ_NEXT(n, entry)) != NULL) {
				n = next;
				break;
			}
			n = n->parent;
			d--;
		}
	}
	if (keep != NULL)
		mjcf_puts(&o, "\n");
	*buf = o.buf;
	*len = o.len;
	return 0;
}

int
mjcf_write(const struct mjcf_doc *doc, char **buf, size_t *len)
{
	return mjcf_write_out(doc, NULL, buf, len);
}

int
mjcf_write_lines(const struct mjcf_doc *doc, char **buf, size_t *len)
{
	return mjcf_write_out(doc, doc->files[0], buf, len);
}
