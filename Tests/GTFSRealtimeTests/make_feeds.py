#!/usr/bin/env python3
"""Builds GTFS-realtime feeds with Google's bindings (gtfs-realtime-bindings) for the Swift
reader's tests, and says what they hold as the bindings read them back.

    make_feeds.py OUTDIR

Writes OUTDIR/<case>.pb and OUTDIR/expected.json: for each case its file, the feed as
json_format.MessageToDict reads it (proto field names), the number of entities the Swift reader
must skip, and whether the message is one to refuse whole.
"""
import json
import os
import sys

from google.protobuf import json_format
from google.transit import gtfs_realtime_pb2 as rt

NOW = 1764680000  # a fixed moment, so the files are the same on every run


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(field, wire):
    return varint(field << 3 | wire)


def header(feed, incrementality=rt.FeedHeader.FULL_DATASET):
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.incrementality = incrementality
    feed.header.timestamp = NOW


def add_vehicles(feed):
    e = feed.entity.add(id="vehicle-1")
    v = e.vehicle
    v.trip.trip_id = "T1"
    v.trip.route_id = "R10"
    v.trip.direction_id = 1
    v.trip.start_time = "08:15:00"
    v.trip.start_date = "20261202"
    v.trip.schedule_relationship = rt.TripDescriptor.SCHEDULED
    v.vehicle.id = "bus-4711"
    v.vehicle.label = "4711 Hauptbahnhof"
    v.vehicle.license_plate = "ZH 123 456"
    v.position.latitude = 47.3769
    v.position.longitude = 8.5417
    v.position.bearing = 123.5
    v.position.odometer = 123456.789
    v.position.speed = 11.2
    v.current_stop_sequence = 7
    v.stop_id = "8503000:0:3"
    v.current_status = rt.VehiclePosition.STOPPED_AT
    v.timestamp = NOW - 12

    e = feed.entity.add(id="vehicle-2")
    v = e.vehicle
    v.vehicle.id = "tram-2"
    v.position.latitude = -33.8688
    v.position.longitude = -151.2093
    v.position.bearing = 359.9
    v.current_status = rt.VehiclePosition.INCOMING_AT
    v.timestamp = 4102444800  # past 2^32: a 64-bit time on a 32-bit board

    e = feed.entity.add(id="vehicle-3")
    e.vehicle.position.latitude = 0.0
    e.vehicle.position.longitude = 0.0
    e.vehicle.current_status = rt.VehiclePosition.IN_TRANSIT_TO


def add_trip_updates(feed):
    e = feed.entity.add(id="tu-delays")
    tu = e.trip_update
    tu.trip.trip_id = "T1"
    tu.trip.start_date = "20261202"
    tu.trip.start_time = "08:15:00"
    tu.vehicle.id = "bus-4711"
    tu.timestamp = NOW - 30
    tu.delay = 90
    u = tu.stop_time_update.add(stop_sequence=3, stop_id="S3")
    u.arrival.delay = 300
    u.arrival.uncertainty = 30
    u.departure.delay = 320
    u = tu.stop_time_update.add(stop_sequence=5)
    u.schedule_relationship = rt.TripUpdate.StopTimeUpdate.SKIPPED
    u = tu.stop_time_update.add(stop_sequence=8, stop_id="S8")
    u.arrival.time = NOW + 600
    u.arrival.delay = -45
    u.departure.time = NOW + 660
    u.departure.uncertainty = 0
    u = tu.stop_time_update.add(stop_sequence=4000000000, stop_id="S-last")
    u.schedule_relationship = rt.TripUpdate.StopTimeUpdate.NO_DATA

    e = feed.entity.add(id="tu-canceled")
    e.trip_update.trip.trip_id = "T2"
    e.trip_update.trip.start_date = "20261202"
    e.trip_update.trip.schedule_relationship = rt.TripDescriptor.CANCELED

    e = feed.entity.add(id="tu-new")
    tu = e.trip_update
    tu.trip.trip_id = "NEW-1"
    tu.trip.route_id = "R10"
    tu.trip.direction_id = 0
    tu.trip.start_date = "20261202"
    tu.trip.start_time = "25:10:00"
    tu.trip.schedule_relationship = rt.TripDescriptor.NEW
    for i, stop in enumerate(["S1", "S2", "S3"]):
        u = tu.stop_time_update.add(stop_sequence=i + 1, stop_id=stop)
        u.arrival.time = NOW + 60 * (i + 1)
        u.departure.time = NOW + 60 * (i + 1) + 20
        u.schedule_relationship = rt.TripUpdate.StopTimeUpdate.SCHEDULED

    e = feed.entity.add(id="tu-duplicated")
    tu = e.trip_update
    tu.trip.trip_id = "T1"
    tu.trip.start_date = "20261202"
    tu.trip.schedule_relationship = rt.TripDescriptor.DUPLICATED
    tu.trip_properties.trip_id = "T1-dup"
    tu.trip_properties.start_date = "20261203"
    tu.trip_properties.start_time = "09:15:00"
    u = tu.stop_time_update.add(stop_sequence=1)
    u.departure.delay = 0
    u.schedule_relationship = rt.TripUpdate.StopTimeUpdate.UNSCHEDULED

    for name, rel in [("replacement", rt.TripDescriptor.REPLACEMENT), ("added", rt.TripDescriptor.ADDED),
                      ("deleted", rt.TripDescriptor.DELETED), ("unscheduled", rt.TripDescriptor.UNSCHEDULED)]:
        e = feed.entity.add(id="tu-" + name)
        e.trip_update.trip.trip_id = "T-" + name
        e.trip_update.trip.schedule_relationship = rel
        u = e.trip_update.stop_time_update.add(stop_id="S1")
        u.arrival.time = -1  # int64 sign extension, however unlikely in a feed

    e = feed.entity.add(id="gone", is_deleted=True)


def add_alert(feed):
    e = feed.entity.add(id="alert-1")
    a = e.alert
    a.active_period.add(start=NOW - 3600, end=NOW + 7200)
    a.active_period.add(start=NOW + 86400)
    a.informed_entity.add(agency_id="ZVV")
    a.informed_entity.add(route_id="R10", route_type=3)
    s = a.informed_entity.add(stop_id="S3")
    s.trip.trip_id = "T1"
    s.trip.start_date = "20261202"
    a.cause = rt.Alert.CONSTRUCTION
    a.effect = rt.Alert.DETOUR
    a.header_text.translation.add(text="Umleitung Linie 10", language="de")
    a.header_text.translation.add(text="Line 10 diverted", language="en")
    a.description_text.translation.add(text="Stops S4 to S6 are not served. Ünïcödé ✓")
    a.severity_level = rt.Alert.WARNING  # in the spec, not read by PulseDot
    a.url.translation.add(text="https://example.org/alerts/1")


def add_unknown_fields(feed):
    """Fields PulseDot does not know: extensions in the spec's ranges, made-up numbers of every
    wire type, a group, known fields it does not read; merged in as raw bytes."""
    feed.header.feed_version = "v42"
    extra = (tag(1000, 0) + varint(12345) + tag(9001, 2) + varint(3) + b"abc")
    feed.header.MergeFromString(extra)
    v = feed.entity[0].vehicle
    v.congestion_level = rt.VehiclePosition.STOP_AND_GO
    v.occupancy_status = rt.VehiclePosition.FEW_SEATS_AVAILABLE
    v.MergeFromString(tag(99, 5) + b"\x01\x02\x03\x04" + tag(98, 1) + b"\x00" * 8
                      + tag(97, 3) + tag(1, 0) + varint(7) + tag(2, 3) + tag(2, 4) + tag(97, 4)
                      + tag(1500, 0) + varint(2**64 - 1))
    feed.entity[0].MergeFromString(tag(9999, 2) + varint(5) + b"hello")
    u = feed.entity[3].trip_update.stop_time_update[0]
    u.stop_time_properties.assigned_stop_id = "S3b"
    u.arrival.MergeFromString(tag(1001, 0) + varint(1))


def expected(feed):
    return json_format.MessageToDict(feed, preserving_proto_field_name=True)


def refused(data):
    try:
        rt.FeedMessage().ParseFromString(data)
        return False
    except Exception:
        return True


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = {}

    def write(name, data, expect=None, skipped=0, error=None):
        with open(os.path.join(out, name + ".pb"), "wb") as f:
            f.write(data)
        cases[name] = {"file": name + ".pb", "expect": expect, "skipped": skipped, "error": error,
                       "bindings_refuse": refused(data)}

    for name, build in [("vehicles", add_vehicles), ("trip_updates", add_trip_updates), ("alert", add_alert)]:
        feed = rt.FeedMessage()
        header(feed)
        build(feed)
        write(name, feed.SerializeToString(), expected(feed))

    feed = rt.FeedMessage()
    header(feed)
    add_vehicles(feed)
    add_trip_updates(feed)
    add_alert(feed)
    plain = feed.SerializeToString()
    add_unknown_fields(feed)
    data = feed.SerializeToString()
    assert len(data) > len(plain) + 40, "the unknown fields did not survive serialization"
    reread = rt.FeedMessage()
    reread.ParseFromString(data)
    write("unknown_fields", data, expected(reread))

    # Truncated inside the last entity's nested message: the bindings refuse it too.
    write("truncated", data[:len(data) - 7], error="truncated")
    write("garbage", bytes(range(0xF0, 0x100)) * 4 + b"\x0a\xff", error="garbage")

    feed = rt.FeedMessage()
    header(feed, rt.FeedHeader.DIFFERENTIAL)
    add_vehicles(feed)
    write("differential", feed.SerializeToString(), error="DIFFERENTIAL")

    # Three entities, the middle one holding a trip_update whose length runs past the entity's
    # end: the bindings refuse the whole message; the Swift reader keeps the other two.
    good = rt.FeedMessage()
    header(good)
    add_vehicles(good)
    del good.entity[2]
    bad_entity = tag(1, 2) + varint(3) + b"bad" + tag(3, 2) + varint(200) + b"\x0a\x03T99"
    data = (tag(1, 2) + varint(len(good.header.SerializeToString())) + good.header.SerializeToString()
            + tag(2, 2) + varint(len(good.entity[0].SerializeToString())) + good.entity[0].SerializeToString()
            + tag(2, 2) + varint(len(bad_entity)) + bad_entity
            + tag(2, 2) + varint(len(good.entity[1].SerializeToString())) + good.entity[1].SerializeToString())
    write("corrupt_entity", data, expected(good), skipped=1)

    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"cases": cases}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
