// Linux headers that Swift's Glibc module leaves out: the descriptors a single poll loop waits on,
// and the framebuffer and console structures whose exact C layout the fbdev ioctls copy.
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <linux/fb.h>
#include <linux/kd.h>
