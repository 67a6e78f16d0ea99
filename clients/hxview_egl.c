/*
 * The EGL context hxview renders in: no window and no X server.  The
 * device platform finds a GPU's EGL (or Mesa's software device); the
 * surfaceless platform is Mesa's, and works with its software renderer
 * where there is no GPU at all.  MuJoCo renders into its own offscreen
 * framebuffer, so the context needs no surface.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "hxview_common.h"

/* OpenGL's GL_RENDERER, without including OpenGL for one constant. */
#define EGL_GL_RENDERER 0x1F01

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static EGLDisplay egl_display = EGL_NO_DISPLAY;
static EGLContext egl_context = EGL_NO_CONTEXT;
static char egl_what[256];

static const char *
egl_error_name(EGLint e)
{
	switch (e) {
	case EGL_NOT_INITIALIZED:
		return "EGL_NOT_INITIALIZED";
	case EGL_BAD_ACCESS:
		return "EGL_BAD_ACCESS";
	case EGL_BAD_ALLOC:
		return "EGL_BAD_ALLOC";
	case EGL_BAD_ATTRIBUTE:
		return "EGL_BAD_ATTRIBUTE";
	case EGL_BAD_CONFIG:
		return "EGL_BAD_CONFIG";
	case EGL_BAD_CONTEXT:
		return "EGL_BAD_CONTEXT";
	case EGL_BAD_DISPLAY:
		return "EGL_BAD_DISPLAY";
	case EGL_BAD_MATCH:
		return "EGL_BAD_MATCH";
	case EGL_BAD_PARAMETER:
		return "EGL_BAD_PARAMETER";
	default:
		return "an EGL error";
	}
}

/* Has the client (no-display) extension string this name? */
static int
egl_has_client_extension(const char *name)
{
	const char *all = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	size_t n = strlen(name);
	const char *p;

	for (p = all; p != NULL && (p = strstr(p, name)) != NULL; p += n)
		if ((p == all || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* The first EGL device's display, or EGL_NO_DISPLAY. */
static EGLDisplay
egl_device_display(PFNEGLGETPLATFORMDISPLAYEXTPROC get_display)
{
	PFNEGLQUERYDEVICESEXTPROC query_devices;
	EGLDeviceEXT devices[8];
	EGLint n = 0, i;
	EGLDisplay dpy;
	EGLint major, minor;

	if (!egl_has_client_extension("EGL_EXT_platform_device") ||
	    !egl_has_client_extension("EGL_EXT_device_enumeration"))
		return EGL_NO_DISPLAY;
	query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress(
	    "eglQueryDevicesEXT");
	if (query_devices == NULL || !query_devices(8, devices, &n))
		return EGL_NO_DISPLAY;
	for (i = 0; i < n; i++) {
		dpy = get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
		if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, &major, &minor))
			return dpy;
	}
	return EGL_NO_DISPLAY;
}

/* The surfaceless platform's display, or EGL_NO_DISPLAY. */
static EGLDisplay
egl_surfaceless_display(PFNEGLGETPLATFORMDISPLAYEXTPROC get_display)
{
	EGLDisplay dpy;
	EGLint major, minor;

	if (!egl_has_client_extension("EGL_MESA_platform_surfaceless"))
		return EGL_NO_DISPLAY;
	dpy = get_display(
	    EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
		return EGL_NO_DISPLAY;
	return dpy;
}

/*
 * Make a desktop OpenGL context current on dpy, with no surface; 0, or
 * -1 with why.  dpy is terminated on failure.
 */
static int
egl_context_on(EGLDisplay dpy, const char *used, char *err, size_t len)
{
	/* Any surface type: MuJoCo draws into its own framebuffer. */
	static const EGLint attrs[] = { EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
		EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24,
		EGL_STENCIL_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
		EGL_SURFACE_TYPE, 0, EGL_NONE };
	const unsigned char *(*get_string)(unsigned);
	const char *renderer;
	EGLConfig config;
	EGLint n = 0;

	egl_display = dpy;
	if (!eglChooseConfig(dpy, attrs, &config, 1, &n) || n < 1) {
		snprintf(err, len,
		    "EGL (%s platform) has no configuration with 8-bit RGBA, "
		    "a depth and a stencil buffer for desktop OpenGL",
		    used);
		egl_stop();
		return -1;
	}
	if (!eglBindAPI(EGL_OPENGL_API) ||
	    (egl_context = eglCreateContext(
		 dpy, config, EGL_NO_CONTEXT, NULL)) == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_context)) {
		snprintf(err, len,
		    "cannot make a desktop OpenGL context current on EGL "
		    "(%s platform): %s",
		    used, egl_error_name(eglGetError()));
		egl_stop();
		return -1;
	}
	get_string = (const unsigned char *(*)(unsigned))eglGetProcAddress(
	    "glGetString");
	renderer = get_string != NULL ?
	    (const char *)get_string(EGL_GL_RENDERER) :
	    NULL;
	snprintf(egl_what, sizeof(egl_what), "EGL %s platform, %s %s, %s", used,
	    eglQueryString(dpy, EGL_VENDOR), eglQueryString(dpy, EGL_VERSION),
	    renderer != NULL ? renderer : "unknown renderer");
	return 0;
}

int
egl_start(const char *platform, char *err, size_t len)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
	int any = strcmp(platform, "auto") == 0;
	char first[512] = "";
	EGLDisplay dpy;

	if (!egl_has_client_extension("EGL_EXT_platform_base") ||
	    (get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
		 "eglGetPlatformDisplayEXT")) == NULL) {
		snprintf(err, len,
		    "EGL has no platform displays (EGL_EXT_platform_base): "
		    "install libegl-mesa0 or a GPU's EGL");
		return -1;
	}
	/* A GPU first; Mesa's surfaceless platform renders anywhere. */
	if (any || strcmp(platform, "device") == 0) {
		dpy = egl_device_display(get_display);
		if (dpy != EGL_NO_DISPLAY &&
		    egl_context_on(dpy, "device", first, sizeof(first)) == 0)
			return 0;
		if (dpy == EGL_NO_DISPLAY)
			snprintf(first, sizeof(first), "no EGL device display");
		if (!any) {
			snprintf(err, len, "%s", first);
			return -1;
		}
	}
	dpy = egl_surfaceless_display(get_display);
	if (dpy == EGL_NO_DISPLAY) {
		snprintf(err, len,
		    "%s%sno EGL display on the surfaceless platform: install "
		    "libegl-mesa0 and libgl1-mesa-dri (Mesa's software "
		    "renderer) or a GPU's EGL",
		    first, first[0] != '\0' ? "; " : "");
		return -1;
	}
	return egl_context_on(dpy, "surfaceless", err, len);
}

void
egl_stop(void)
{
	if (egl_display == EGL_NO_DISPLAY)
		return;
	eglMakeCurrent(
	    egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (egl_context != EGL_NO_CONTEXT)
		eglDestroyContext(egl_display, egl_context);
	/*
	 * No eglTerminate(): the display lives until the process ends, and
	 * terminating makes Mesa 22 unload its driver with an allocation
	 * of its own still held, which LeakSanitizer reports.
	 */
	egl_display = EGL_NO_DISPLAY;
	egl_context = EGL_NO_CONTEXT;
}

const char *
egl_description(void)
{
	return egl_what;
}
