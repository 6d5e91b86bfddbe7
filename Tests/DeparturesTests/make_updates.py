#!/usr/bin/env python3
"""Builds the GTFS-realtime TripUpdates feeds the departures tests read, with Google's bindings
(gtfs-realtime-bindings), so the Swift reader decodes what a real producer writes.

    make_updates.py OUTDIR

Writes OUTDIR/<case>.pb. The trips are Fortaleza's (America/Fortaleza, UTC-3 all year) on
Wednesday 2019-07-03; FREQ is the tests' own frequencies.txt feed on the same day.
"""
import calendar
import os
import sys

from google.transit import gtfs_realtime_pb2 as rt

DAY = "20190703"
TRIP = "U810-T01V05B01-I"  # departs 08:32 from stop 1; stop 3 at 08:35, stop 8 (2662) at 08:40


def local(h, m, s=0):
    """UTC seconds of a wall-clock time on DAY in Fortaleza."""
    return calendar.timegm((2019, 7, 3, h, m, s)) + 3 * 3600


def feed():
    f = rt.FeedMessage()
    f.header.gtfs_realtime_version = "2.0"
    f.header.incrementality = rt.FeedHeader.FULL_DATASET
    f.header.timestamp = local(8, 20)
    return f


def present(message, **fields):
    """Sets the fields given (None: left out, so the reader sees them missing, as proto2 keeps)."""
    for name, value in fields.items():
        if value is not None:
            setattr(message, name, value)


def update(f, trip_id=TRIP, relationship=rt.TripDescriptor.SCHEDULED, start_date=DAY, route_id=None, start_time=None):
    tu = f.entity.add(id="e%d" % len(f.entity)).trip_update
    present(tu.trip, trip_id=trip_id, start_date=start_date, start_time=start_time, route_id=route_id,
            schedule_relationship=relationship)
    return tu


def stop(tu, sequence=None, stop_id=None, relationship=None, dep_delay=None, dep_time=None, arr_delay=None, arr_time=None):
    s = tu.stop_time_update.add()
    present(s, stop_sequence=sequence, stop_id=stop_id, schedule_relationship=relationship)
    present(s.departure, delay=dep_delay, time=dep_time)
    present(s.arrival, delay=arr_delay, time=arr_time)
    return s


def cases():
    STU = rt.TripUpdate.StopTimeUpdate
    out = {}

    f = feed()
    stop(update(f), sequence=3, dep_delay=120)
    out["delay_at_3"] = f

    # Stop 3 two minutes late, then stop 6 SCHEDULED without times, or NO_DATA, or stop 8 skipped.
    for name, then in (("scheduled_at_6", dict(sequence=6, relationship=STU.SCHEDULED)),
                       ("no_data_at_6", dict(sequence=6, relationship=STU.NO_DATA)),
                       ("skipped_8", dict(stop_id="2662", relationship=STU.SKIPPED))):
        f = feed()
        tu = update(f)
        stop(tu, sequence=3, dep_delay=120)
        stop(tu, **then)
        out[name] = f

    f = feed()
    tu = update(f)
    stop(tu, sequence=3, dep_delay=60, dep_time=local(8, 35) + 300)
    out["time_beats_delay"] = f

    f = feed()
    stop(update(f), sequence=3, arr_delay=180)
    out["arrival_only"] = f

    f = feed()
    update(f, relationship=rt.TripDescriptor.CANCELED)
    out["canceled"] = f

    f = feed()
    update(f, relationship=rt.TripDescriptor.DELETED)
    out["deleted"] = f

    f = feed()
    tu = update(f, trip_id="NEW-1", relationship=rt.TripDescriptor.NEW, route_id="810")
    stop(tu, sequence=1, stop_id="2662", arr_time=local(9, 5), dep_time=local(9, 6))
    stop(tu, sequence=2, stop_id="2657", arr_time=local(9, 8))
    out["new_trip"] = f

    # REPLACEMENT: the trip's stops and times replaced whole; ADDED, deprecated, read as NEW.
    f = feed()
    tu = update(f, relationship=rt.TripDescriptor.REPLACEMENT)
    stop(tu, stop_id="2662", dep_time=local(8, 50))
    stop(tu, stop_id="6079", arr_time=local(9, 5))
    tu = update(f, trip_id="ADDED-1", relationship=rt.TripDescriptor.ADDED, route_id="810")
    stop(tu, stop_id="2662", dep_time=local(9, 15))
    stop(tu, stop_id="6079", arr_time=local(9, 30))
    out["replacement_and_added"] = f

    f = feed()
    tu = update(f, relationship=rt.TripDescriptor.DUPLICATED)
    tu.trip_properties.trip_id = "U810-DUPLICATE"
    tu.trip_properties.start_date = DAY
    tu.trip_properties.start_time = "09:02:00"
    out["duplicated"] = f

    f = feed()
    stop(update(f, trip_id="NOT-IN-THE-FEED"), sequence=3, dep_delay=60)
    stop(update(f), stop_id="999999", dep_delay=60)
    out["unknown"] = f

    # Values no producer should send: the largest stop_sequence, the smallest time.
    f = feed()
    tu = update(f)
    stop(tu, sequence=3, dep_time=-(2 ** 63))
    stop(tu, sequence=2 ** 32 - 1, dep_delay=60)
    out["out_of_range"] = f

    f = feed()
    stop(update(f, start_date=None), sequence=3, dep_delay=240)
    out["no_start_date"] = f

    # The frequencies feed: F1 runs every 10 minutes from 08:00; its 08:20 run is updated.
    f = feed()
    tu = update(f, trip_id="F1", start_time="08:20:00")
    stop(tu, sequence=1, dep_delay=600)
    out["freq_delay"] = f

    f = feed()
    tu = update(f, trip_id="F1", start_time="08:20:00")
    stop(tu, sequence=1, dep_time=local(8, 23))
    out["freq_time"] = f
    return out


def main():
    folder = sys.argv[1]
    for name, message in cases().items():
        with open(os.path.join(folder, name + ".pb"), "wb") as out:
            out.write(message.SerializeToString())


if __name__ == "__main__":
    main()
