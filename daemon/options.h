/*
 * The daemon's settings: defaults, then the command line.  Every limit
 * the daemon enforces is here, so that status and docs can name it.
 */
#ifndef HXD_OPTIONS_H
#define HXD_OPTIONS_H

#include <stddef.h>

#define OPTIONS_MAX_MODEL_DIRS 16

struct options {
	const char *model; /* NULL: the default scene */
	int no_model;      /* start with no model loaded */
	int legacy;        /* translate HAPTIX 1.x MJCF when loading */
	const char *model_dirs[OPTIONS_MAX_MODEL_DIRS];
	int nmodel_dirs;
	const char *unix_path; /* NULL: none */
	const char *tcp;       /* NULL: none */
	const char *token_file;
	double speed; /* speed factor; ignored with speed_max */
	int speed_max;
	int paused;
	double api_rate; /* Hz; < 0: the model's apirate */
	int max_clients;
	size_t max_frame;  /* bytes in one frame, either way */
	size_t max_queued; /* unsent bytes per client */
	int lease_loss;    /* enum lease_loss: when the holder vanishes */
	int verbosity;
};

/*
 * Fill opts from defaults and argv.  Returns 0 to run, 1 after printing
 * help or version (exit 0), -1 after printing an error (exit 2).
 */
int options_parse(struct options *opts, int argc, char **argv);

/* The bundled default scene's file name, looked up in the model dirs. */
#define OPTIONS_DEFAULT_MODEL "mpl_scene.xml"

#endif
