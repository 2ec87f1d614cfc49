// The parts of ncursesw that Swift cannot import directly.
//
// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, and without the wide-character
// switch mvaddwstr and get_wch do not exist. Swift 6 rejects mutable C
// globals (stdscr, LINES, COLS) and cannot import function-like macros
// (A_BOLD, COLOR_PAIR, getmaxyx), so they are wrapped in inline functions.
#ifndef LAB_CNCURSESW_SHIM_H
#define LAB_CNCURSESW_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline WINDOW *lab_stdscr(void) { return stdscr; }
static inline int lab_lines(void) { return LINES; }
static inline int lab_cols(void) { return COLS; }
static inline int lab_max_y(void) { int y, x; getmaxyx(stdscr, y, x); (void)x; return y; }
static inline int lab_max_x(void) { int y, x; getmaxyx(stdscr, y, x); (void)y; return x; }

static inline attr_t lab_a_normal(void) { return A_NORMAL; }
static inline attr_t lab_a_bold(void) { return A_BOLD; }
static inline attr_t lab_a_reverse(void) { return A_REVERSE; }
static inline attr_t lab_a_dim(void) { return A_DIM; }
static inline attr_t lab_a_underline(void) { return A_UNDERLINE; }
static inline attr_t lab_color_pair(short pair) { return COLOR_PAIR(pair); }

static inline mmask_t lab_click_mask(void) {
    return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline mmask_t lab_wheel_up(void) { return BUTTON4_PRESSED; }
static inline mmask_t lab_wheel_down(void) { return BUTTON5_PRESSED; }
static inline mmask_t lab_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t lab_button1_pressed(void) { return BUTTON1_PRESSED; }

static inline int lab_wcwidth(wchar_t c) { return wcwidth(c); }

static inline FILE *lab_stdout(void) { return stdout; }
static inline FILE *lab_stdin(void) { return stdin; }

#endif
