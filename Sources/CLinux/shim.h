// Linux headers that Swift's Glibc module leaves out: the descriptors a single poll loop waits on,
// the framebuffer and console structures whose exact C layout the fbdev ioctls copy, mallopt, and
// netlink's address (kernel uevents for display hot-plug), and adjtimex (is the clock synchronised).
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <signal.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <malloc.h>
#include <linux/netlink.h>
#include <sys/timex.h>
