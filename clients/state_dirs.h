/*
 * The daemon's state directories, where its recordings are, in
 * haptixd's order (state_dirs.c): a directory given (haptixd
 * --state-dir), $STATE_DIRECTORY (systemd's StateDirectory=, its first),
 * $XDG_STATE_HOME/haptixd, ~/.local/state/haptixd and the service's
 * /var/lib/haptixd.  hxplay finds a recording by its bare name there;
 * hxview serve lists them for the workbench.
 */
#ifndef HX_STATE_DIRS_H
#define HX_STATE_DIRS_H

/*
 * Call fn(dir, arg) for each absolute one (given may be NULL) until fn
 * returns nonzero; that value, or 0.
 */
int state_dirs_each(
    const char *given, int (*fn)(const char *dir, void *arg), void *arg);

#endif
