#ifndef DOCKET_CTERMINAL_H
#define DOCKET_CTERMINAL_H

/// The size of the terminal on `fd` in columns and rows; returns 0 on success, -1 when `fd` is
/// not a terminal. (ioctl is variadic, so Swift cannot call it directly.)
int docket_terminal_size(int fd, int *columns, int *rows);

#endif
