// SPDX-License-Identifier: MIT
/*
 * simt-svg-check: checks an SVG picture as the guest tests need it, with
 * no XML library (the guest has busybox only).  The file must be
 * well-formed XML: one root element, <svg> in the SVG namespace with a
 * width and a height above zero and at least one element inside; tags
 * nested and closed; attributes quoted and not repeated; only XML's
 * predefined entities and character references; no markup character in
 * text; no control characters.  Geometry attributes (x, y, x1, y1, x2,
 * y2, cx, cy, width, height, r, points) must be finite numbers, sizes not
 * negative.  Then the elements are counted per class (each name of a
 * class attribute) and compared with the expectations given.
 *
 *   simt-svg-check FILE [CLASS=N | CLASS>=N | CLASS<=N]...
 *
 * Prints "CLASS COUNT" per expectation.  Exit status 0 if the file is
 * well-formed and meets every expectation, 1 if not (the reason on
 * stderr), 2 on a usage error.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256
#define MAX_ATTRS 64
#define MAX_CLASSES 1024
#define NAME_MAX_LEN 64

static const char *path;
static const char *text;	/* the whole file, NUL-terminated */
static size_t text_len;

static struct {
	char name[NAME_MAX_LEN];
	unsigned long count;
} classes[MAX_CLASSES];
static unsigned int nclasses;

static void bad(const char *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* Report what is wrong at @at (its line number) and exit 1. */
static void bad(const char *at, const char *fmt, ...)
{
	unsigned int line = 1;
	const char *p;
	va_list ap;

	for (p = text; at && p < at && p < text + text_len; p++)
		line += *p == '\n';
	fprintf(stderr, "simt-svg-check: %s:%u: ", path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int name_start(int c)
{
	return isalpha(c) || c == '_' || c == ':';
}

static int name_char(int c)
{
	return isalnum(c) || c == '_' || c == ':' || c == '-' || c == '.';
}

/* A name at @p into @out; returns the character after it. */
static const char *parse_name(const char *p, char *out)
{
	size_t n = 0;

	if (!name_start((unsigned char)*p))
		bad(p, "a name expected, found '%c'", *p ? *p : '?');
	while (name_char((unsigned char)*p)) {
		if (n + 1 >= NAME_MAX_LEN)
			bad(p, "name too long");
		out[n++] = *p++;
	}
	out[n] = 0;
	return p;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A reference after '&' at @p: &amp; &lt; &gt; &quot; &apos; &#N; &#xN; */
static const char *parse_ref(const char *p)
{
	static const char *const names[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
	const char *digits;
	unsigned long v;
	char *end;

	p++;
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(p, names[i], strlen(names[i])))
			return p + strlen(names[i]);
	if (*p != '#')
		bad(p, "an undefined entity");
	p++;
	digits = *p == 'x' ? p + 1 : p;
	errno = 0;
	v = strtoul(digits, &end, *p == 'x' ? 16 : 10);
	if (errno || end == digits || !isxdigit((unsigned char)*digits) || *end != ';' ||
	    !v || v > 0x10ffff)
		bad(p, "a bad character reference");
	return end + 1;
}

/* Any byte below 0x20 but tab, newline and carriage return is not XML. */
static void check_chars(void)
{
	for (size_t i = 0; i < text_len; i++) {
		unsigned char c = text[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			bad(text + i, "control character 0x%02x", c);
	}
}

static void count_class(const char *name, size_t len)
{
	unsigned int i;

	if (len >= NAME_MAX_LEN)
		len = NAME_MAX_LEN - 1;
	for (i = 0; i < nclasses; i++) {
		if (strlen(classes[i].name) == len &&
		    !strncmp(classes[i].name, name, len)) {
			classes[i].count++;
			return;
		}
	}
	if (nclasses == MAX_CLASSES)
		bad(name, "more than %u class names", MAX_CLASSES);
	memcpy(classes[nclasses].name, name, len);
	classes[nclasses].name[len] = 0;
	classes[nclasses++].count = 1;
}

static unsigned long class_count(const char *name)
{
	for (unsigned int i = 0; i < nclasses; i++)
		if (!strcmp(classes[i].name, name))
			return classes[i].count;
	return 0;
}

/* A geometry attribute: one finite number; @nonneg: not below zero. */
static void check_number(const char *at, const char *attr, const char *v, size_t len,
			 int nonneg)
{
	char buf[64], *end;
	double d;

	if (!len || len >= sizeof(buf))
		bad(at, "%s=\"%.*s\" is not a number", attr, (int)len, v);
	memcpy(buf, v, len);
	buf[len] = 0;
	d = strtod(buf, &end);
	while (*end == ' ')
		end++;
	if (end == buf || *end || !isfinite(d))
		bad(at, "%s=\"%s\" is not a finite number", attr, buf);
	if (nonneg && d < 0)
		bad(at, "%s=\"%s\" is negative", attr, buf);
}

/* points="x,y x,y ...": pairs of finite numbers. */
static void check_points(const char *at, const char *v, size_t len)
{
	char *buf = malloc(len + 1), *p, *end;
	unsigned long n = 0;

	if (!buf)
		exit(1);
	memcpy(buf, v, len);
	buf[len] = 0;
	for (p = buf;;) {
		double d;

		while (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		d = strtod(p, &end);
		if (end == p || !isfinite(d))
			bad(at, "points: \"%.20s\" is not a finite number", p);
		p = end;
		n++;
	}
	free(buf);
	if (!n || n % 2)
		bad(at, "points: %lu numbers, not pairs", n);
}

/*
 * A start tag after '<' at @p: the element's name into @name, its
 * attributes checked and its classes counted.  *@empty is set for
 * "<x/>".  Returns the character after '>'.
 */
static const char *parse_start_tag(const char *p, char *name, int *empty, int root,
				   int *root_ok)
{
	char attrs[MAX_ATTRS][NAME_MAX_LEN];
	const char *tag = p;
	unsigned int nattrs = 0;
	double width = 0, height = 0;
	int xmlns = 0;

	p = parse_name(p, name);
	for (;;) {
		const char *q = skip_space(p), *v;
		char quote;
		size_t len;

		if (*q == '>' || (q[0] == '/' && q[1] == '>'))
			break;
		if (q == p)
			bad(q, "<%s>: space expected before an attribute", name);
		if (nattrs == MAX_ATTRS)
			bad(q, "<%s>: more than %u attributes", name, MAX_ATTRS);
		p = parse_name(q, attrs[nattrs]);
		for (unsigned int i = 0; i < nattrs; i++)
			if (!strcmp(attrs[i], attrs[nattrs]))
				bad(q, "<%s>: attribute %s twice", name, attrs[i]);
		p = skip_space(p);
		if (*p != '=')
			bad(p, "<%s>: '=' expected after %s", name, attrs[nattrs]);
		p = skip_space(p + 1);
		if (*p != '"' && *p != '\'')
			bad(p, "<%s>: attribute %s not quoted", name, attrs[nattrs]);
		quote = *p++;
		v = p;
		while (*p != quote) {
			if (!*p)
				bad(v, "<%s>: attribute %s not closed", name, attrs[nattrs]);
			if (*p == '<')
				bad(p, "<%s>: '<' in attribute %s", name, attrs[nattrs]);
			if (*p == '&')
				p = parse_ref(p);
			else
				p++;
		}
		len = p - v;
		p++;
		if (!strcmp(attrs[nattrs], "class")) {
			const char *c = v, *e = v + len;

			while (c < e) {
				const char *s;

				while (c < e && isspace((unsigned char)*c))
					c++;
				s = c;
				while (c < e && !isspace((unsigned char)*c))
					c++;
				if (c > s)
					count_class(s, c - s);
			}
		} else if (!strcmp(attrs[nattrs], "points")) {
			check_points(tag, v, len);
		} else {
			static const char *const geom[] = { "x", "y", "x1", "y1", "x2", "y2",
							    "cx", "cy", "width", "height", "r" };

			for (unsigned int i = 0; i < sizeof(geom) / sizeof(geom[0]); i++)
				if (!strcmp(attrs[nattrs], geom[i]))
					check_number(tag, geom[i], v, len, i >= 8);
		}
		if (root) {
			if (!strcmp(attrs[nattrs], "xmlns"))
				xmlns = len == 26 && !strncmp(v, "http://www.w3.org/2000/svg", 26);
			else if (!strcmp(attrs[nattrs], "width"))
				width = strtod(v, NULL);
			else if (!strcmp(attrs[nattrs], "height"))
				height = strtod(v, NULL);
		}
		nattrs++;
	}
	p = skip_space(p);
	*empty = *p == '/';
	if (root) {
		if (strcmp(name, "svg"))
			bad(tag, "the root element is <%s>, not <svg>", name);
		if (!xmlns)
			bad(tag, "<svg> without xmlns=\"http://www.w3.org/2000/svg\"");
		if (!(width > 0) || !(height > 0))
			bad(tag, "<svg> without a width and a height above zero");
		*root_ok = 1;
	}
	return p + (*empty ? 2 : 1);
}

/* Comments, processing instructions and CDATA sections after '<' at @p. */
static const char *skip_special(const char *p, int cdata_ok)
{
	const char *end;

	if (!strncmp(p, "<!--", 4)) {
		end = strstr(p + 4, "--");
		if (!end || end[2] != '>')
			bad(p, "a comment not closed (or with \"--\" inside)");
		return end + 3;
	}
	if (p[1] == '?') {
		end = strstr(p + 2, "?>");
		if (!end)
			bad(p, "a processing instruction not closed");
		return end + 2;
	}
	if (cdata_ok && !strncmp(p, "<![CDATA[", 9)) {
		end = strstr(p + 9, "]]>");
		if (!end)
			bad(p, "a CDATA section not closed");
		return end + 3;
	}
	if (p[1] == '!')
		bad(p, "a declaration (DOCTYPE or other) is not expected");
	return NULL;
}

static void parse(void)
{
	static char stack[MAX_DEPTH][NAME_MAX_LEN];
	unsigned int depth = 0;
	unsigned long elements = 0;
	int root_ok = 0, done = 0;
	const char *p = text, *q;

	check_chars();
	/* Before the root: space, the XML declaration, comments. */
	for (;;) {
		p = skip_space(p);
		if (*p != '<')
			bad(p, *p ? "text before the root element" : "no root element");
		q = skip_special(p, 0);
		if (!q)
			break;
		p = q;
	}
	while (!done) {
		if (*p == '<') {
			if ((q = skip_special(p, 1))) {
				p = q;
			} else if (p[1] == '/') {
				char name[NAME_MAX_LEN];

				q = parse_name(p + 2, name);
				q = skip_space(q);
				if (*q != '>')
					bad(q, "</%s: '>' expected", name);
				if (strcmp(name, stack[depth - 1]))
					bad(p, "</%s> closes <%s>", name, stack[depth - 1]);
				p = q + 1;
				if (!--depth)
					done = 1;
			} else {
				int empty;

				if (depth == MAX_DEPTH)
					bad(p, "elements nested deeper than %u", MAX_DEPTH);
				p = parse_start_tag(p + 1, stack[depth], &empty, !depth && !elements,
						    &root_ok);
				elements++;
				if (!empty)
					depth++;
				else if (!depth)
					done = 1;
			}
		} else if (*p == '&') {
			p = parse_ref(p);
		} else if (!*p) {
			bad(p, "the file ends inside <%s>", stack[depth - 1]);
		} else if (*p == '>' && p - text >= 2 && p[-1] == ']' && p[-2] == ']') {
			bad(p, "\"]]>\" in text");
		} else {
			p++;
		}
	}
	/* After the root: space, comments and processing instructions only. */
	for (;;) {
		p = skip_space(p);
		if (!*p)
			break;
		if (*p != '<' || !(q = skip_special(p, 0)))
			bad(p, "content after the root element");
		p = q;
	}
	if (!root_ok)
		bad(text, "no <svg> root element");
	if (elements < 2)
		bad(text, "<svg> is empty");
	if ((size_t)(p - text) != text_len)
		bad(p, "a NUL byte in the file");
}

int main(int argc, char **argv)
{
	size_t cap = 1 << 16;
	char *buf;
	FILE *f;
	int failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: simt-svg-check FILE [CLASS=N | CLASS>=N | CLASS<=N]...\n");
		return 2;
	}
	path = argv[1];
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "simt-svg-check: %s: %s\n", path, strerror(errno));
		return 1;
	}
	buf = malloc(cap);
	for (;;) {
		size_t n;

		if (!buf)
			return 1;
		n = fread(buf + text_len, 1, cap - text_len - 1, f);
		text_len += n;
		if (text_len + 1 < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	fclose(f);
	buf[text_len] = 0;
	text = buf;
	parse();
	for (int i = 2; i < argc; i++) {
		char name[NAME_MAX_LEN], *op = argv[i] + strcspn(argv[i], "<>=");
		unsigned long want, got;
		char *end;
		int kind;	/* 0: =, 1: >=, -1: <= */

		if (op == argv[i] || op - argv[i] >= NAME_MAX_LEN || !*op)
			goto usage;
		memcpy(name, argv[i], op - argv[i]);
		name[op - argv[i]] = 0;
		if (op[0] == '=')
			kind = 0, op++;
		else if (op[1] == '=')
			kind = op[0] == '>' ? 1 : -1, op += 2;
		else
			goto usage;
		want = strtoul(op, &end, 10);
		if (end == op || *end)
			goto usage;
		got = class_count(name);
		printf("%s %lu\n", name, got);
		if ((kind == 0 && got != want) || (kind > 0 && got < want) ||
		    (kind < 0 && got > want)) {
			fprintf(stderr, "simt-svg-check: %s: %lu elements of class %s, expected %s\n",
				path, got, name, argv[i] + strlen(name));
			failed = 1;
		}
	}
	return failed;
usage:
	fprintf(stderr, "simt-svg-check: bad expectation (CLASS=N, CLASS>=N or CLASS<=N)\n");
	return 2;
}
