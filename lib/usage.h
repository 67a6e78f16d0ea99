/*
 * What the programs (haptixd and the clients) share on their command
 * line: the version line, and the words for an option getopt_long() did
 * not take (with opterr = 0, so that getopt's own message, which names
 * argv[0] — libtool's .libs path in a build tree — is never printed).
 */
#ifndef HX_USAGE_H
#define HX_USAGE_H

/* The exit status of a bad command line, in every program. */
#define USAGE_EXIT 2

/* Print "PROG (haptixd) VERSION" on standard output. */
void usage_version(const char *prog);

/*
 * A bad command line: "NAME: message" and "NAME: see NAME --help" on
 * standard error (NAME: program_set_name's).  Returns USAGE_EXIT.
 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * An option's value: a finite number in [lo, hi]; -1 after saying what
 * is wrong ("OPT: 'S' is not a number from LO to HI").
 */
int usage_number(
    const char *opt, const char *s, double lo, double hi, double *out);

/*
 * After getopt_long() returned '?' or ':' (an optstring starting with
 * ':'): say which option, and where the options are listed, on standard
 * error.  Returns USAGE_EXIT.
 */
int usage_bad_option(const char *prog, int ch, char *const argv[]);

#endif
