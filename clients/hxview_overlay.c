/*
 * HAPTIX's overlays, drawn over the scene: the info box (time, real-time
 * factor, CPU per step, constraints and contacts, energy, connection),
 * the sensor bar graph grouped by sensor type, the mj_message text in
 * large font, and "Paused".
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hxview_mujoco.h"

/* The sensor panel: a share of the picture, at the bottom right. */
#define BARS_WIDTH 0.46
#define BARS_HEIGHT 0.24
#define BARS_MARGIN 8
/* The overlay's padding around a label's text (pixels, about). */
#define BARS_LABEL_PAD 12

/* Short names of mjtSensor, for the group labels. */
static const char *
sensor_type_name(int type)
{
	static const char *const names[] = { "touch", "accel", "velo", "gyro",
		"force", "torque", "magnet", "range", "jntpos", "jntvel",
		"tenpos", "tenvel", "actpos", "actvel", "actfrc", "ballq",
		"ballw", "jlimpos", "jlimvel", "jlimfrc", "tlimpos", "tlimvel",
		"tlimfrc", "pos", "quat", "xaxis", "yaxis", "zaxis", "linvel",
		"angvel", "linacc", "angacc", "com", "comvel", "angmom",
		"clock", "user" };

	if (type < 0 || (size_t)type >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[type];
}

static void
info_box(const struct overlay_input *in)
{
	const hxd_status *st = in->status;
	char titles[256], values[512], rtf[64];
	size_t n;

	if (st == NULL) {
		snprintf(titles, sizeof(titles), "Time\nConnection");
		snprintf(values, sizeof(values), "%.3f\n%s", in->d->time,
		    in->server);
		mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMLEFT, in->viewport,
		    titles, values, in->con);
		return;
	}
	if (st->speed_max)
		snprintf(rtf, sizeof(rtf), "%.2f (max)", st->realtime_factor);
	else
		snprintf(rtf, sizeof(rtf), "%.2f (of %g)", st->realtime_factor,
		    st->speed);
	if (st->lagging) {
		n = strlen(rtf);
		snprintf(rtf + n, sizeof(rtf) - n, " lagging");
	}
	snprintf(titles, sizeof(titles),
	    "Time\nReal-time\nCPU/step\nConstraints\nEnergy\nConnection");
	snprintf(values, sizeof(values),
	    "%.3f\n%s\n%.3f ms\n%d (%d contacts)\n%.3f / %.3f\n%s, %d "
	    "client%s",
	    st->time, rtf, st->cpu_per_step * 1e3, st->nefc, st->ncon,
	    st->energy_potential, st->energy_kinetic, in->server, st->clients,
	    st->clients == 1 ? "" : "s");
	/* HAPTIX's Mocap field: a connected body's pose, sampling to the
	 * physics (this viewer's own frame time comes on top). */
	if (st->ntracking > 0 && st->tracking[0].connected &&
	    st->tracking[0].latency >= 0) {
		n = strlen(titles);
		snprintf(titles + n, sizeof(titles) - n, "\nMocap");
		n = strlen(values);
		snprintf(values + n, sizeof(values) - n, "\n%.1f ms",
		    st->tracking[0].latency * 1e3);
	}
	mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMLEFT, in->viewport, titles,
	    values, in->con);
}

/* The width of text in the normal font, with the overlay's padding. */
static int
text_width(const mjrContext *con, const char *text)
{
	int w = BARS_LABEL_PAD;

	for (; *text != '\0'; text++)
		w += con->charWidth[(unsigned char)*text & 0x7f];
	return w;
}

/*
 * The scale of the group of sensors [i, end): the largest cutoff or |value|
 * any of them has shown, so that bars of one type compare.
 */
static double
group_scale(const struct overlay_input *in, int i, int end)
{
	const mjModel *m = in->m;
	const mjtNum *v;
	double g = 0;
	int k, j;

	for (k = i; k < end; k++) {
		v = in->d->sensordata + m->sensor_adr[k];
		if (m->sensor_cutoff[k] > in->scale[k])
			in->scale[k] = m->sensor_cutoff[k];
		for (j = 0; j < m->sensor_dim[k]; j++)
			if (isfinite(v[j]) && fabs(v[j]) > in->scale[k])
				in->scale[k] = fabs(v[j]);
		if (in->scale[k] > g)
			g = in->scale[k];
	}
	return g > 0 ? g : 1;
}

/*
 * One bar per sensor value, up or down from the middle line, scaled by
 * the largest cutoff or value its group has shown; a group of sensors
 * of one type shares a scale, a shade and a label.
 */
static void
sensor_bars(const struct overlay_input *in)
{
	const mjModel *m = in->m;
	const mjrRect *vp = &in->viewport;
	mjrRect panel, bar, label;
	int i, k, n = m->nsensordata, x, group, start, shade = 0;
	double w, h, mid, val, scale;
	const char *name;

	if (n == 0)
		return;
	panel.width = (int)(vp->width * BARS_WIDTH);
	panel.height = (int)(vp->height * BARS_HEIGHT);
	panel.left = vp->left + vp->width - panel.width - BARS_MARGIN;
	panel.bottom = vp->bottom + BARS_MARGIN;
	mjr_rectangle(panel, 0.1f, 0.1f, 0.1f, 0.6f);
	w = (double)(panel.width - 2 * BARS_MARGIN) / n;
	h = (panel.height - 2 * BARS_MARGIN) * 0.35;
	mid = panel.bottom + BARS_MARGIN + h;
	bar.width = w > 2 ? (int)w - 1 : 1;
	for (i = 0, x = 0; i < m->nsensor; i = group) {
		/* A run of sensors of one type. */
		for (group = i; group < m->nsensor &&
		     m->sensor_type[group] == m->sensor_type[i];
		     group++)
			;
		start = x;
		scale = group_scale(in, i, group);
		for (k = i; k < group; k++) {
			int j;

			for (j = 0; j < m->sensor_dim[k]; j++, x++) {
				val = in->d->sensordata[m->sensor_adr[k] + j];
				val = isfinite(val) ? val / scale : 0;
				if (val > 1)
					val = 1;
				if (val < -1)
					val = -1;
				bar.left = panel.left + BARS_MARGIN +
				    (int)(x * w);
				bar.height = (int)fabs(val * h) + 1;
				bar.bottom = val >= 0 ? (int)mid :
							(int)mid - bar.height;
				if (shade)
					mjr_rectangle(
					    bar, 0.95f, 0.65f, 0.2f, 1);
				else
					mjr_rectangle(
					    bar, 0.3f, 0.75f, 0.95f, 1);
			}
		}
		name = sensor_type_name(m->sensor_type[i]);
		if ((x - start) * w >= text_width(in->con, name)) {
			label.left = panel.left + BARS_MARGIN +
			    (int)(start * w);
			label.width = (int)((x - start) * w);
			label.bottom = (int)(mid + h) + 2;
			label.height = panel.bottom + panel.height -
			    label.bottom;
			mjr_overlay(mjFONT_NORMAL, mjGRID_TOPLEFT, label, name,
			    NULL, in->con);
		}
		shade = !shade;
	}
	/* The zero line. */
	bar.left = panel.left + BARS_MARGIN;
	bar.width = panel.width - 2 * BARS_MARGIN;
	bar.bottom = (int)mid;
	bar.height = 1;
	mjr_rectangle(bar, 0.9f, 0.9f, 0.9f, 0.8f);
}

void
overlay_draw(const struct overlay_input *in)
{
	const struct view_options *o = in->o;
	const hxd_status *st = in->status;

	if (o->info)
		info_box(in);
	if (o->sensors)
		sensor_bars(in);
	if (st != NULL && st->message[0] != '\0')
		mjr_overlay(mjFONT_BIG, mjGRID_TOPLEFT, in->viewport,
		    st->message, NULL, in->con);
	if (st != NULL && st->paused)
		mjr_overlay(mjFONT_BIG, mjGRID_TOPRIGHT, in->viewport, "Paused",
		    NULL, in->con);
}
