/*
 * Encoding rendered frames (RGB, 8 bits a channel, top row first): PNG
 * with libpng, JPEG with libjpeg for the MJPEG stream, YUV4MPEG2 (4:2:0,
 * BT.601 full range as "C420jpeg" says) for frame sequences that ffmpeg
 * and video players read, and binary PPM for frames, which a program
 * reads without a decoder.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>
#include <png.h>

#include "hxview_common.h"

int
image_png_write(FILE *f, const unsigned char *rgb, int width, int height)
{
	png_structp png;
	png_infop info;
	int y;

	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (png == NULL || (info = png_create_info_struct(png)) == NULL) {
		png_destroy_write_struct(&png, NULL);
		errno = ENOMEM;
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		errno = EIO;
		return -1;
	}
	png_init_io(png, f);
	/* Rendered pictures compress little better at higher levels. */
	png_set_compression_level(png, 3);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
	    PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < height; y++)
		png_write_row(png, rgb + (size_t)y * (size_t)width * 3);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

int
image_png_file(
    const char *path, const unsigned char *rgb, int width, int height)
{
	FILE *f = fopen(path, "wb");
	int rc, saved;

	if (f == NULL)
		return -1;
	rc = image_png_write(f, rgb, width, height);
	saved = errno;
	if (fclose(f) != 0 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}

/* libjpeg reports errors by calling this; go back to image_jpeg(). */
struct jpeg_failure {
	struct jpeg_error_mgr mgr;
	jmp_buf back;
};

static void
jpeg_failed(j_common_ptr cinfo)
{
	longjmp(((struct jpeg_failure *)(void *)cinfo->err)->back, 1);
}

int
image_jpeg(const unsigned char *rgb, int width, int height, int quality,
    unsigned char **out, size_t *outlen)
{
	struct jpeg_compress_struct cinfo;
	struct jpeg_failure fail;
	unsigned char *volatile buf = NULL;
	unsigned long len = 0;
	JSAMPROW row;

	*out = NULL;
	*outlen = 0;
	cinfo.err = jpeg_std_error(&fail.mgr);
	fail.mgr.error_exit = jpeg_failed;
	if (setjmp(fail.back)) {
		jpeg_destroy_compress(&cinfo);
		free(buf);
		errno = ENOMEM;
		return -1;
	}
	jpeg_create_compress(&cinfo);
	jpeg_mem_dest(&cinfo, (unsigned char **)&buf, &len);
	cinfo.image_width = (JDIMENSION)width;
	cinfo.image_height = (JDIMENSION)height;
	cinfo.input_components = 3;
	cinfo.in_color_space = JCS_RGB;
	jpeg_set_defaults(&cinfo);
	jpeg_set_quality(&cinfo, quality, TRUE);
	jpeg_start_compress(&cinfo, TRUE);
	while (cinfo.next_scanline < cinfo.image_height) {
		row = (JSAMPROW)(rgb +
		    (size_t)cinfo.next_scanline * (size_t)width * 3);
		jpeg_write_scanlines(&cinfo, &row, 1);
	}
	jpeg_finish_compress(&cinfo);
	jpeg_destroy_compress(&cinfo);
	*out = buf;
	*outlen = len;
	return 0;
}

int
image_y4m_header(FILE *f, int width, int height, double fps)
{
	unsigned num = (unsigned)(fps * 1000 + 0.5), den = 1000;

	/* Whole rates as N:1, others in thousandths. */
	if (num % 1000 == 0) {
		num /= 1000;
		den = 1;
	}
	return fprintf(f, "YUV4MPEG2 W%d H%d F%u:%u Ip A1:1 C420jpeg\n", width,
		   height, num, den) < 0 ?
	    -1 :
	    0;
}

static unsigned char
clamp_byte(double v)
{
	return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
}

int
image_y4m_frame(FILE *f, const unsigned char *rgb, int width, int height,
    unsigned char *scratch)
{
	size_t npix = (size_t)width * (size_t)height;
	unsigned char *yp = scratch, *up = scratch + npix, *vp = up + npix / 4;
	const unsigned char *p;
	double r, g, b;
	int x, y, dx, dy;

	for (y = 0; y < height; y++)
		for (x = 0; x < width; x++) {
			p = rgb + ((size_t)y * (size_t)width + (size_t)x) * 3;
			yp[(size_t)y * (size_t)width + (size_t)x] = clamp_byte(
			    0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]);
		}
	/* Chroma of each 2x2 block, from its mean colour. */
	for (y = 0; y < height / 2; y++)
		for (x = 0; x < width / 2; x++) {
			r = g = b = 0;
			for (dy = 0; dy < 2; dy++)
				for (dx = 0; dx < 2; dx++) {
					p = rgb +
					    ((size_t)(2 * y + dy) *
						    (size_t)width +
						(size_t)(2 * x + dx)) *
						3;
					r += p[0];
					g += p[1];
					b += p[2];
				}
			r /= 4;
			g /= 4;
			b /= 4;
			up[(size_t)y * (size_t)(width / 2) +
			    (size_t)x] = clamp_byte(128 - 0.168736 * r -
			    0.331264 * g + 0.5 * b);
			vp[(size_t)y * (size_t)(width / 2) +
			    (size_t)x] = clamp_byte(128 + 0.5 * r -
			    0.418688 * g - 0.081312 * b);
		}
	if (fputs("FRAME\n", f) == EOF ||
	    fwrite(scratch, 1, npix + npix / 2, f) != npix + npix / 2)
		return -1;
	return 0;
}

int
image_ppm_write(FILE *f, const unsigned char *rgb, int width, int height)
{
	size_t n = (size_t)width * (size_t)height * 3;

	if (fprintf(f, "P6\n%d %d\n255\n", width, height) < 0 ||
	    fwrite(rgb, 1, n, f) != n)
		return -1;
	return fflush(f) == 0 ? 0 : -1;
}
