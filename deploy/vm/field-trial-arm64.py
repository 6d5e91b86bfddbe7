#!/usr/bin/env python3
"""The boots of deploy/vm/field-trial-arm64 (which prepares WORK: root.ext4, initrd.img).

    field-trial-arm64.py WORK KERNEL

First boot: the guest finishes its own root and installs PulseDot, then powers off. Second boot:
the kiosk, gpsd reading a virtio console this script writes NMEA to (GGA and RMC once a second,
moving north-east); the guest's report service says on the console what systemd and the journal
say; when it says "screen ready" the screen is read with QMP screendump and the dot looked for.
Every check that fails is one line on stderr; exit 0 when none did.
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time

work, kernel = sys.argv[1], sys.argv[2]
failures = []


def fail(line):
    failures.append(line)
    print("field-trial-arm64: " + line, file=sys.stderr)


def qemu(extra, append, log):
    return subprocess.Popen(
        ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-smp", "2", "-m", "1024",
         "-no-reboot", "-display", "none", "-monitor", "none",
         "-kernel", kernel, "-initrd", os.path.join(work, "initrd.img"),
         "-append", "console=ttyAMA0 panic=-1 " + append,
         "-drive", "file=%s,if=none,format=raw,id=root" % os.path.join(work, "root.ext4"),
         "-device", "virtio-blk-pci,drive=root",
         "-chardev", "file,id=console,path=" + log, "-serial", "chardev:console"] + extra,
        stdin=subprocess.DEVNULL)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def wait(process, log, marker, timeout):
    """Waits for a console line containing `marker` (True), or QEMU's end or the timeout (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(marker in line for line in read(log).splitlines()):
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.5)
    return False


def finish(process, timeout):
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return False
    return True


# --- First boot -----------------------------------------------------------------------------------

first_log = os.path.join(work, "first-boot.log")
started = time.monotonic()
vm = qemu([], "field.init=/field-first-boot", first_log)
done = wait(vm, first_log, "FIELD: first boot done", 3600)
finish(vm, 120)
first_seconds = time.monotonic() - started
text = read(first_log)
for line in text.splitlines():
    if line.startswith("FIELD-FAIL"):
        fail("first boot: " + line)
if not done:
    fail("first boot did not finish (%.0f s); its console ends: %s" % (first_seconds, text[-800:]))
    sys.exit(1)
print("field-trial-arm64: first boot (debootstrap's second stage, dpkg -i) %.0f s" % first_seconds)
for line in text.splitlines():
    if line.startswith("FIELD: enabled"):
        print("field-trial-arm64: " + line)
        if "enabled" != line.split()[-1]:
            fail("pulsedot.service is not enabled after dpkg -i: " + line)

# --- The kiosk ------------------------------------------------------------------------------------

def nmea(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return "$%s*%02X\r\n" % (body, checksum)


def coordinate(value, width, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    return "%0*d%07.4f" % (width, degrees, (value - degrees) * 60), hemisphere


def feed(path, stop):
    """One GGA + RMC a second into the guest's hvc0 (gpsd's device), from the moment QEMU listens."""
    deadline = time.monotonic() + 60
    while True:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            break
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.2)
    lat, lon, second = 45.5, -73.6, 0
    while not stop.is_set():
        t = time.gmtime()
        hms = time.strftime("%H%M%S.00", t)
        dmy = time.strftime("%d%m%y", t)
        la, ns = coordinate(lat, 2, "N", "S")
        lo, ew = coordinate(lon, 3, "E", "W")
        try:
            s.sendall((nmea("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,30.0,M,-32.0,M,," % (hms, la, ns, lo, ew))
                       + nmea("GPRMC,%s,A,%s,%s,%s,%s,20.0,45.0,%s,,,A" % (hms, la, ns, lo, ew, dmy))).encode())
        except OSError:
            return
        lat += 0.00007
        lon += 0.0001
        second += 1
        stop.wait(1)


def qmp(path, command):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    s.connect(path)
    f = s.makefile("rw")
    f.readline()
    for c in ({"execute": "qmp_capabilities"}, command):
        f.write(json.dumps(c) + "\n")
        f.flush()
        while True:
            answer = json.loads(f.readline())
            if "return" in answer or "error" in answer:
                break
    s.close()
    return answer


def ppm(path):
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[i + 1:]


kiosk_log = os.path.join(work, "kiosk.log")
gps_socket = os.path.join(work, "gps.sock")
qmp_socket = os.path.join(work, "qmp.sock")
started = time.monotonic()
vm = qemu(["-device", "bochs-display,romfile=", "-device", "virtio-serial-pci",
           "-chardev", "socket,id=gps,path=%s,server=on,wait=off" % gps_socket, "-device", "virtconsole,chardev=gps",
           "-qmp", "unix:%s,server=on,wait=off" % qmp_socket], "quiet", kiosk_log)
stop = threading.Event()
feeder = threading.Thread(target=feed, args=(gps_socket, stop), daemon=True)
feeder.start()
ready = wait(vm, kiosk_log, "FIELD: screen ready", 1200)
boot_seconds = time.monotonic() - started
if ready:
    shot = os.path.join(work, "screen.ppm")
    answer = qmp(qmp_socket, {"execute": "screendump", "arguments": {"filename": shot}})
    if "error" in answer:
        fail("screendump: %s" % answer["error"])
    else:
        w, h, pixels = ppm(shot)
        # The dot's fill: look.md's annotationColor (0 122 255), lighter while the inner dot
        # breathes (the kiosk runs the default look), never the map's colour or the white ring.
        blue = [(i // 3 % w, i // 3 // w) for i in range(0, len(pixels) - 2, 3)
                if pixels[i + 2] > 200 and pixels[i] < 120 and pixels[i + 1] < 190 and pixels[i + 2] - pixels[i] > 120]
        print("field-trial-arm64: screen %dx%d, %d dot-coloured pixels" % (w, h, len(blue)))
        if len(blue) < 200:
            fail("no dot on the screen (%d pixels of its colour)" % len(blue))
        else:
            cx = sum(p[0] for p in blue) / len(blue)
            cy = sum(p[1] for p in blue) / len(blue)
            print("field-trial-arm64: the dot's centre at (%.1f, %.1f)" % (cx, cy))
else:
    fail("the kiosk never said 'screen ready' (%.0f s)" % boot_seconds)
finished = wait(vm, kiosk_log, "FIELD: done", 120)
stop.set()
if not finish(vm, 120):
    fail("the kiosk did not power off")
text = read(kiosk_log)
report = [line for line in text.splitlines() if line.startswith("FIELD: ")]
for line in report:
    print("field-trial-arm64: guest " + line[len("FIELD: "):])
print("field-trial-arm64: kiosk boot to report %.0f s" % boot_seconds)


def said(prefix):
    return next((line for line in report if line.startswith("FIELD: " + prefix)), "")


if not said("pulsedot active"):
    fail("pulsedot.service was not active: " + said("pulsedot"))
if not any("receiving from /dev/hvc0" in line for line in report):
    fail("the journal never said pulsedot receives from gpsd's /dev/hvc0")
if not any("composes the dot" in line or "software composition" in line or "drives" in line for line in report):
    print("field-trial-arm64: (no composition line in the first journal lines)")
if not finished or "result success status 0" not in said("stopped"):
    fail("systemctl stop did not end pulsedot with status 0: " + said("stopped"))
sys.exit(1 if failures else 0)
