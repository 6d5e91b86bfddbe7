// Linux headers that Swift's Glibc module leaves out: the descriptors a single poll loop waits on.
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <signal.h>
