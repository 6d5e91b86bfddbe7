#!/usr/bin/env python3
"""The stop kiosk's world for the end-to-end test: Fortaleza's real feed moved to today, and its
GTFS-realtime feeds made with Google's bindings (gtfs-realtime-bindings).

    kiosk_feeds.py gtfs FORTALEZA.zip OUTDIR NOW    -> OUTDIR/feed/*.txt, prints the plan as JSON
    kiosk_feeds.py feeds OUTDIR PHASE NOW           -> OUTDIR/files/{vp,tu,alerts}.pb
    kiosk_feeds.py loop OUTDIR                      -> the same every 2 s, as a producer does, the
                                                       phase read from OUTDIR/phase

The weekday service U runs every day from two days ago, and every time in stop_times moves by
one whole number of minutes, so trip U810-T01V05B01-I leaves stop 2662 (its stop 8) eight
minutes after NOW. Fortaleza keeps UTC-3 all year. The realtime feeds say, per the spec: that
trip 2 min late from its stop 3 (so 2 min late at 2662, live); the next trip through 2662
cancelled; the one after it skipping 2662; a NEW trip leaving 2662 twenty minutes after NOW; a
vehicle on the first trip at its stop 3 (phase 0) or stop 5 (phase 1); a vehicle that has
passed 2662; an alert for 2662 in English and Portuguese, and three that must not show.
"""
import csv
import io
import json
import os
import sys
import time
import zipfile

from google.transit import gtfs_realtime_pb2 as rt

TRIP, STOP = "U810-T01V05B01-I", "2662"
UTC_OFFSET = -3 * 3600


def hms(t):
    h, m, s = t.split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


def fmt(s):
    return "%02d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def ymd(day_number):
    return time.strftime("%Y%m%d", time.gmtime(day_number * 86400))


def gtfs(src, out, now):
    feed = os.path.join(out, "feed")
    os.makedirs(feed, exist_ok=True)
    z = zipfile.ZipFile(src)
    rows = list(csv.DictReader(io.TextIOWrapper(z.open("stop_times.txt"), "utf-8-sig")))
    dep_t = next(hms(r["departure_time"]) for r in rows if r["trip_id"] == TRIP and r["stop_id"] == STOP)
    local = now + UTC_OFFSET
    today = local // 86400
    target = local % 86400 + 8 * 60
    day = today
    if target < dep_t:
        day, target = today - 1, target + 86400
    shift = (target - dep_t) // 60 * 60
    for name in z.namelist():
        data = z.read(name)
        if name == "stop_times.txt":
            text = io.StringIO()
            w = csv.DictWriter(text, fieldnames=list(rows[0].keys()), lineterminator="\n")
            w.writeheader()
            for r in rows:
                r = dict(r)
                for k in ("arrival_time", "departure_time"):
                    if r[k]:
                        r[k] = fmt(hms(r[k]) + shift)
                w.writerow(r)
            data = text.getvalue().encode()
        elif name == "calendar.txt":
            lines = data.decode("utf-8-sig").splitlines()
            out_lines = [lines[0]]
            for line in lines[1:]:
                f = line.split(",")
                if f[0] == "U":
                    f[1:8] = ["1"] * 7
                    f[8], f[9] = ymd(day - 2), ymd(day + 30)
                out_lines.append(",".join(f))
            data = ("\n".join(out_lines) + "\n").encode()
        with open(os.path.join(feed, name), "wb") as f:
            f.write(data)
    origin = day * 86400 - UTC_OFFSET
    at_stop = sorted((hms(r["departure_time"]) + shift, r["trip_id"], int(r["stop_sequence"]))
                     for r in rows if r["stop_id"] == STOP and r["trip_id"].startswith("U") and r["departure_time"])
    mine = [x for x in at_stop if x[1] == TRIP][0]
    after = [x for x in at_stop if x[0] > mine[0] and x[1] != TRIP]
    before = [x for x in at_stop if origin + x[0] <= now]
    trip_stops = sorted((int(r["stop_sequence"]), r["stop_id"]) for r in rows if r["trip_id"] == TRIP)
    stops = {r["stop_id"]: r for r in csv.DictReader(io.TextIOWrapper(z.open("stops.txt"), "utf-8-sig"))}
    routes = {r["trip_id"]: r["route_id"] for r in csv.DictReader(io.TextIOWrapper(z.open("trips.txt"), "utf-8-sig"))}
    def place(seq):
        sid = dict(trip_stops)[seq]
        return [float(stops[sid]["stop_lat"]), float(stops[sid]["stop_lon"])]
    plan = {
        "date": ymd(day), "origin": origin, "shift": shift, "trip": TRIP, "stop": STOP, "sequence": mine[2],
        "scheduled": origin + mine[0], "route": routes[TRIP],
        "cancelled": after[0][1], "cancelledScheduled": origin + after[0][0],
        "skipped": after[1][1], "skippedSequence": after[1][2],
        "passed": before[-1][1] if before else None, "passedSequence": before[-1][2] if before else None,
        "stopPlace": [float(stops[STOP]["stop_lat"]), float(stops[STOP]["stop_lon"])],
        "stop3": place(3), "stop5": place(5), "newTime": now + 20 * 60,
    }
    json.dump(plan, sys.stdout)


def header(f, now):
    f.header.gtfs_realtime_version = "2.0"
    f.header.incrementality = rt.FeedHeader.FULL_DATASET
    f.header.timestamp = now


def feeds(out, phase, now):
    plan = json.load(open(os.path.join(out, "plan.json")))
    files = os.path.join(out, "files")
    os.makedirs(files, exist_ok=True)
    STU = rt.TripUpdate.StopTimeUpdate

    tu = rt.FeedMessage()
    header(tu, now)
    u = tu.entity.add(id="late").trip_update
    u.trip.trip_id, u.trip.start_date = plan["trip"], plan["date"]
    s = u.stop_time_update.add()
    s.stop_sequence = 3
    s.departure.delay = 120
    u = tu.entity.add(id="cancelled").trip_update
    u.trip.trip_id, u.trip.start_date = plan["cancelled"], plan["date"]
    u.trip.schedule_relationship = rt.TripDescriptor.CANCELED
    u = tu.entity.add(id="skipping").trip_update
    u.trip.trip_id, u.trip.start_date = plan["skipped"], plan["date"]
    s = u.stop_time_update.add()
    s.stop_sequence = plan["skippedSequence"]
    s.schedule_relationship = STU.SKIPPED
    u = tu.entity.add(id="new").trip_update
    u.trip.trip_id, u.trip.start_date, u.trip.route_id = "KIOSK-NEW-1", plan["date"], plan["route"]
    u.trip.schedule_relationship = rt.TripDescriptor.NEW
    for stop_id, t in ((plan["stop"], plan["newTime"]), ("2663", plan["newTime"] + 300)):
        s = u.stop_time_update.add()
        s.stop_id = stop_id
        s.departure.time = t

    vp = rt.FeedMessage()
    header(vp, now)
    # Phase 2: the same bus on the trip that skips 2662 (a bus's display takes it up); 3: gone.
    v = vp.entity.add(id="v1").vehicle if phase < 3 else rt.VehiclePosition()
    v.trip.trip_id, v.trip.start_date = (plan["trip"] if phase < 2 else plan["skipped"]), plan["date"]
    v.vehicle.id, v.vehicle.label = "V1", "bus 1"
    lat, lon = plan["stop3"] if phase in (0, 2) else plan["stop5"]
    v.position.latitude, v.position.longitude, v.position.bearing = lat, lon, 90
    v.current_stop_sequence = 3 if phase == 0 else 5
    v.current_status = rt.VehiclePosition.STOPPED_AT
    v.timestamp = now
    if plan["passed"]:
        v = vp.entity.add(id="v2").vehicle
        v.trip.trip_id, v.trip.start_date = plan["passed"], plan["date"]
        v.vehicle.id = "V2"
        v.position.latitude, v.position.longitude = plan["stop5"]
        v.current_stop_sequence = plan["passedSequence"] + 1
        v.timestamp = now

    al = rt.FeedMessage()
    header(al, now)
    def alert(key, texts):
        a = al.entity.add(id=key).alert
        for lang, text in texts:
            t = a.header_text.translation.add()
            t.text = text
            if lang:
                t.language = lang
        return a
    a = alert("here", [("en", "Stop 2662: board 50 m further on"), ("pt", "Parada 2662: embarque 50 m adiante")])
    a.informed_entity.add().stop_id = plan["stop"]
    a = alert("elsewhere", [(None, "another stop closed")])
    a.informed_entity.add().stop_id = "no-such-stop"
    a = alert("over", [(None, "an alert that ended")])
    a.informed_entity.add().route_id = plan["route"]
    p = a.active_period.add()
    p.start, p.end = now - 7200, now - 3600
    a = alert("both", [(None, "route and another stop, both needed")])
    e = a.informed_entity.add()
    e.route_id, e.stop_id = plan["route"], "no-such-stop"

    for name, message in (("vp.pb", vp), ("tu.pb", tu), ("alerts.pb", al)):
        tmp = os.path.join(files, name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(message.SerializeToString())
        os.rename(tmp, os.path.join(files, name))


def loop(out):
    while True:
        try:
            phase = int(open(os.path.join(out, "phase")).read().strip() or 0)
        except OSError:
            phase = 0
        feeds(out, phase, int(time.time()))
        time.sleep(2)


if sys.argv[1] == "gtfs":
    gtfs(sys.argv[2], sys.argv[3], int(sys.argv[4]))
elif sys.argv[1] == "loop":
    loop(sys.argv[2])
else:
    feeds(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
