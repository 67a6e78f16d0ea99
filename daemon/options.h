/*
 * The daemon's settings: defaults, then the configuration file, then the
 * command line, which wins.  Every setting has one name, the long option,
 * used both on the command line and as the key in the file; every limit
 * the daemon enforces is here, so that status and docs can name it.
 */
#ifndef HXD_OPTIONS_H
#define HXD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#define OPTIONS_MAX_MODEL_DIRS 16

/* What to do when the control lease's holder disconnects (--lease-loss). */
enum lease_loss {
	LEASE_LOSS_PAUSE, /* pause the simulation (the default) */
	LEASE_LOSS_KEEP,  /* change nothing: it runs on as the holder left it */
	LEASE_LOSS_HOLD,  /* servos hold the current pose */
	LEASE_LOSS_ZERO,  /* all controls to zero */
};
#define OPTIONS_MAX_ARGS 64

/* The recording quota unless set (--record-quota): 4 GiB. */
#define OPTIONS_RECORD_QUOTA_DEFAULT (4ull << 30)

struct options {
	char *config; /* the file read, or NULL */

	char *model;  /* NULL: the default scene */
	int no_model; /* start with no model loaded */
	int legacy;   /* translate HAPTIX 1.x MJCF when loading */
	char *model_dirs[OPTIONS_MAX_MODEL_DIRS];
	int nmodel_dirs;
	/* Unix socket clients may add model directories of their own. */
	int user_model_dirs;
	char *unix_path; /* NULL: none */
	char *tcp;       /* NULL: none */
	int unix_set;    /* unix_path and tcp were asked for, not defaults */
	int tcp_set;
	char *token_file;
	char *tls_cert;            /* PEM chain of tls: listeners; NULL: none */
	char *tls_key;             /* its key; NULL: in tls_cert's file */
	char *tls_client_ca;       /* clients must show a certificate of it */
	int allow_cleartext_token; /* take a token over plain TCP from afar */
	int no_shm;                /* offer no shared memory */
	char *state_dir;       /* recordings; NULL: see record_state_dir() */
	uint64_t record_quota; /* bytes one recording may reach; 0: none */
	long history;          /* seconds of states kept (sim_history.h) */
	long history_memory;   /* MiB they may take */
	double speed;          /* speed factor; ignored with speed_max */
	int speed_max;
	int paused;
	double api_rate;       /* Hz; < 0: the model's apirate */
	int max_clients;       /* said Hello */
	int max_handshakes;    /* yet to say Hello, per transport */
	size_t max_frame;      /* bytes in one frame, either way */
	size_t max_queued;     /* unsent bytes per client */
	int max_subscriptions; /* per client */
	double load_timeout;   /* seconds one load may take (loader.h) */
	long load_memory;      /* MiB of the loader's address space */
	long model_max_bodies; /* what a model may declare (sim.h) */
	long model_max_keys;
	long model_max_hfield;  /* cells of one height field */
	long model_max_texture; /* pixels of one texture */
	long model_max_mesh_vertices;
	int lease_loss;         /* enum lease_loss: when the holder vanishes */
	double perturb_timeout; /* seconds of a driver's silence before its
				   force is dropped */
	int verbosity;

	int layer;            /* what is being applied (options.c) */
	int model_dirs_layer; /* where the model dirs came from */
};

/*
 * The command line, kept so that a reload can apply it again over a
 * fresh reading of the file.  Values point into argv.
 */
struct options_cmdline {
	const char *config; /* --config; NULL: the default file */
	int check;          /* --check: read the settings, then exit */
	struct {
		int def; /* index into the settings table */
		const char *value;
	} args[OPTIONS_MAX_ARGS];
	int nargs;
};

/*
 * Read argv.  Returns 0 to run, 1 after printing help or the version
 * (exit 0), -1 after printing an error (exit 2).
 */
int options_parse_cmdline(struct options_cmdline *cl, int argc, char **argv);

/*
 * Build the settings: defaults, then the configuration file (the default
 * one may be missing; a named one may not), then the command line.
 * Returns 0, or -1 with the reason in err ("FILE:LINE: ..." for the file).
 */
int options_build(
    struct options *o, const struct options_cmdline *cl, char *err, size_t len);

/* Apply one setting by name (the configuration file's reader uses it). */
enum options_set_result {
	OPTIONS_SET_OK,
	OPTIONS_SET_UNKNOWN,  /* no such setting */
	OPTIONS_SET_BADVALUE, /* err says why */
};
enum options_set_result options_set(struct options *o, const char *key,
    const char *value, char *err, size_t len);

/* Return 1 if key is a setting that may be given more than once. */
int options_repeatable(const char *key);

/* The name of a --lease-loss policy. */
const char *options_lease_loss_name(int loss);

/* Free what options_build() allocated; the struct may be built again. */
void options_free(struct options *o);

/* The bundled default scene's file name, looked up in the model dirs. */
#define OPTIONS_DEFAULT_MODEL "mpl_scene.xml"

#endif
