/*
 * Reading a recording without a server (haptixd.h, "reading
 * recordings"): the recording library's reader (recording.h), which
 * takes HAPTIX's .mjl too, given in the library's own types.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "recording.h"

struct hxd_log {
	struct rec_reader *r;
	hxd_log_header h;
};

/* The recording's fields as an HXD_FIELDS() set. */
static unsigned
log_fields(uint32_t rec)
{
	static const struct {
		enum rec_field f;
		int field;
	} map[] = {
		{ REC_QPOS, HXD_FIELD_QPOS },
		{ REC_QVEL, HXD_FIELD_QVEL },
		{ REC_ACT, HXD_FIELD_ACT },
		{ REC_CTRL, HXD_FIELD_CTRL },
		{ REC_MOCAP_POS, HXD_FIELD_MOCAP },
		{ REC_MOCAP_QUAT, HXD_FIELD_MOCAP },
		{ REC_SENSORDATA, HXD_FIELD_SENSORDATA },
		{ REC_QFRC_APPLIED, HXD_FIELD_QFRC_APPLIED },
		{ REC_XFRC_APPLIED, HXD_FIELD_XFRC_APPLIED },
	};
	unsigned fields = 0;
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (rec & REC_FIELD_BIT(map[i].f))
			fields |= HXD_FIELDS(map[i].field);
	return fields;
}

hxd_log *
hxd_log_open(const char *path, char *err, size_t len)
{
	const struct rec_header *rh;
	hxd_log *l;

	if (path == NULL) {
		snprintf(err, len, "no file named");
		return NULL;
	}
	if ((l = calloc(1, sizeof(*l))) == NULL) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	if ((l->r = rec_reader_open(path, err, len)) == NULL) {
		free(l);
		return NULL;
	}
	rh = rec_reader_header(l->r);
	l->h.format = rh->format == REC_FORMAT_MJL ? HXD_LOG_MJL : HXD_LOG_HXR;
	snprintf(l->h.name, sizeof(l->h.name), "%s", rh->name);
	l->h.fields = log_fields(rh->fields);
	l->h.every = rh->every;
	/* Each size is within REC_SIZE_MAX: the reader checked. */
	l->h.nq = (int)rh->nq;
	l->h.nv = (int)rh->nv;
	l->h.na = (int)rh->na;
	l->h.nu = (int)rh->nu;
	l->h.nmocap = (int)rh->nmocap;
	l->h.nsensordata = (int)rh->nsensordata;
	l->h.nbody = (int)rh->nbody;
	l->h.timestep = rh->timestep;
	return l;
}

const hxd_log_header *
hxd_log_get_header(const hxd_log *l)
{
	return &l->h;
}

int
hxd_log_next(hxd_log *l, hxd_frame *fr, unsigned long long *segment)
{
	const struct rec_header *m;
	struct rec_item it;
	int rc;

	do
		rc = rec_reader_next(l->r, &it);
	while (rc == 1 && it.tag != REC_TAG_STATE);
	if (rc != 1)
		return rc;
	m = it.model;
	memset(fr, 0, sizeof(*fr));
	fr->time = it.time;
	fr->step = it.step;
	fr->nq = (int)m->nq;
	fr->nv = (int)m->nv;
	fr->na = (int)m->na;
	fr->nu = (int)m->nu;
	fr->nmocap = (int)m->nmocap;
	fr->nsensordata = (int)m->nsensordata;
	fr->nbody = (int)m->nbody;
	/* The reader's buffer, read only: the frame's type is shared. */
	fr->qpos = (double *)it.field[REC_QPOS];
	fr->qvel = (double *)it.field[REC_QVEL];
	fr->act = (double *)it.field[REC_ACT];
	fr->ctrl = (double *)it.field[REC_CTRL];
	fr->mocap_pos = (double *)it.field[REC_MOCAP_POS];
	fr->mocap_quat = (double *)it.field[REC_MOCAP_QUAT];
	fr->sensordata = (double *)it.field[REC_SENSORDATA];
	fr->qfrc_applied = (double *)it.field[REC_QFRC_APPLIED];
	fr->xfrc_applied = (double *)it.field[REC_XFRC_APPLIED];
	if (segment != NULL)
		*segment = it.segment;
	return 1;
}

const char *
hxd_log_error(const hxd_log *l)
{
	return rec_reader_error(l->r);
}

int
hxd_log_truncated(const hxd_log *l)
{
	struct rec_reader_stats st;

	rec_reader_stats(l->r, &st);
	return st.truncated;
}

void
hxd_log_close(hxd_log *l)
{
	if (l == NULL)
		return;
	rec_reader_close(l->r);
	free(l);
}
