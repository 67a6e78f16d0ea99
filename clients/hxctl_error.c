/*
 * hxctl's reporting: a mistake on the command line (exit status
 * CTL_USAGE), a failure in the server's terms (CTL_FAIL), or the ok of a
 * command that only sets something.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* Report a mistake in the command's arguments; returns CTL_USAGE. */
int
ctl_usage_error(struct ctl *ctl, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hxctl: %s: ", ctl->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: hxctl [options] %s%s%s (see hxctl --help)\n",
	    ctl->cmd->name, ctl->cmd->args[0] != '\0' ? " " : "",
	    ctl->cmd->args);
	return CTL_USAGE;
}

/*
 * Report a failure found here, in the server's terms, on one line: a
 * multi-line text (MuJoCo's XML errors) has its line breaks turned into
 * "; ".  Returns CTL_FAIL.
 */
int
ctl_error(struct ctl *ctl, int result, const char *fmt, ...)
{
	char text[4096];
	const char *p;
	va_list ap;
	int brk = 0;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(
	    stderr, "hxctl: %s: %s: ", ctl->cmd->name, hxd_result_name(result));
	for (p = text; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\r') {
			brk = 1;
			continue;
		}
		if (brk && *p == ' ')
			continue;
		if (brk)
			fputs("; ", stderr);
		brk = 0;
		fputc((unsigned char)*p < 0x20 ? ' ' : *p, stderr);
	}
	fputc('\n', stderr);
	return CTL_FAIL;
}

/* Report the failure of the last call on the connection. */
int
ctl_fail(struct ctl *ctl)
{
	int r = hxd_result(ctl->conn);
	const char *e = hxd_error(ctl->conn);

	return ctl_error(ctl, r, "%s", e[0] != '\0' ? e : hxd_result_text(r));
}

/* End a command that changes something: report a failed call, or say ok. */
int
ctl_done(struct ctl *ctl, int result)
{
	if (result != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}
