/*
 * Unit tests of the viewers' message (daemon/message.c), in-process: set,
 * read back with its owner, taken down by "" or by its owner leaving,
 * and cut at MESSAGE_MAX.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "message.h"

TestSuite(message, .timeout = 30);

static struct daemon d;

Test(message, none_at_start)
{
	inproc_start(&d, NULL);
	cr_assert_str_eq(message_text(&d), "");
	cr_assert_eq(message_owner(&d), 0);
	inproc_stop(&d);
}

Test(message, set_shows_text_and_owner)
{
	inproc_start(&d, NULL);
	/* only n bytes are taken: the rest of the buffer is not text */
	message_set(&d, 7, "hello world", 5);
	cr_assert_str_eq(message_text(&d), "hello");
	cr_assert_eq(message_owner(&d), 7);
	/* another client's text replaces it, and the owner with it */
	message_set(&d, 9, "bye", 3);
	cr_assert_str_eq(message_text(&d), "bye");
	cr_assert_eq(message_owner(&d), 9);
	inproc_stop(&d);
}

Test(message, empty_takes_it_down)
{
	inproc_start(&d, NULL);
	message_set(&d, 7, "up", 2);
	message_set(&d, 7, "", 0);
	cr_assert_str_eq(message_text(&d), "");
	cr_assert_eq(message_owner(&d), 0, "no owner without text");
	inproc_stop(&d);
}

Test(message, longer_than_max_is_cut)
{
	static char text[MESSAGE_MAX + 10];
	const char *got;

	inproc_start(&d, NULL);
	memset(text, 'x', sizeof(text));
	text[MESSAGE_MAX - 1] = 'y';
	text[MESSAGE_MAX] = 'z';
	message_set(&d, 3, text, sizeof(text));
	got = message_text(&d);
	cr_assert_eq(strlen(got), MESSAGE_MAX);
	cr_assert_eq(got[MESSAGE_MAX - 1], 'y', "the last byte kept");
	cr_assert_eq(message_owner(&d), 3);
	/* exactly MESSAGE_MAX: all of it */
	message_set(&d, 4, text, MESSAGE_MAX);
	cr_assert_eq(strlen(message_text(&d)), MESSAGE_MAX);
	inproc_stop(&d);
}

Test(message, closed_only_for_its_owner_once)
{
	inproc_start(&d, NULL);
	message_set(&d, 5, "mine", 4);
	cr_assert_eq(message_session_closed(&d, 6), 0, "not its owner");
	cr_assert_str_eq(message_text(&d), "mine");
	cr_assert_eq(message_owner(&d), 5);
	cr_assert_eq(message_session_closed(&d, 0), 0, "id 0 owns nothing");
	cr_assert_str_eq(message_text(&d), "mine");
	cr_assert_eq(message_session_closed(&d, 5), 1);
	cr_assert_str_eq(message_text(&d), "");
	cr_assert_eq(message_owner(&d), 0);
	cr_assert_eq(message_session_closed(&d, 5), 0, "once");
	/* with no message, id 0 must not count as its owner */
	cr_assert_eq(message_session_closed(&d, 0), 0);
	inproc_stop(&d);
}
