#!/usr/bin/env python3
"""An HTTPS server for the feed fetcher's tests: GTFS-realtime feeds made with Google's bindings
(gtfs-realtime-bindings, in the venv `deploy/install-deps --test` makes), and every fault a
fetcher must survive.

    feed_server.py DIR [PORTS]

Also an HTTP proxy port that tunnels CONNECT to the good and plain ports and refuses the rest.
Makes, with the openssl command, a test CA and three server certificates in DIR: a good one
(SAN DNS:localhost, IP:127.0.0.1), one for another host and one that expired. Listens on
127.0.0.1 with one port per certificate and one plain HTTP port (PORTS: "good,wrong,expired,plain"
to listen on the same ports again after a restart; 0 or absent: free ports), then writes
DIR/ports.json. TLS is wrapped per connection, in the connection's thread: a client that
connects and says nothing holds up its own thread only, never the accept loop.
"""
import gzip
import http.server
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
import zlib

from google.transit import gtfs_realtime_pb2 as rt

DIR = sys.argv[1]
STATS = {}
STATS_LOCK = threading.Lock()


def count(key, n):
    with STATS_LOCK:
        STATS[key] = STATS.get(key, 0) + n


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=DIR)


def make_certificates():
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "3", "-subj", "/CN=PulseDot test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    for name, san in [("good", "DNS:localhost,IP:127.0.0.1"), ("wrong", "DNS:wrong.example,IP:192.0.2.1"),
                      ("expired", "DNS:localhost,IP:127.0.0.1")]:
        with open(os.path.join(DIR, name + ".ext"), "w") as f:
            f.write("[san]\nsubjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n" % san)
        openssl("req", *ec, "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name)
    for name in ["good", "wrong"]:
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "3", "-out", name + ".pem", "-extfile", name + ".ext", "-extensions", "san")
    # `openssl x509` cannot date a certificate in the past; `openssl ca` can.
    open(os.path.join(DIR, "index.txt"), "w").close()
    with open(os.path.join(DIR, "serial"), "w") as f:
        f.write("1000\n")
    with open(os.path.join(DIR, "ca.cnf"), "w") as f:
        f.write("[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
                "default_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n")
    openssl("ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "expired.csr",
            "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z",
            "-extfile", "expired.ext", "-extensions", "san", "-notext")


def make_feed():
    feed = rt.FeedMessage()
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.incrementality = rt.FeedHeader.FULL_DATASET
    feed.header.timestamp = int(time.time())
    for i in range(1, 41):
        e = feed.entity.add(id="vehicle-%d" % i)
        v = e.vehicle
        v.trip.trip_id = "trip-%d" % i
        v.vehicle.id = "bus-%d" % i
        v.position.latitude = 47.37 + i * 0.001
        v.position.longitude = 8.54 + i * 0.001
        v.position.bearing = float(i * 9 % 360)
        v.timestamp = feed.header.timestamp - i
    return feed.SerializeToString()


FEED = b""
BOMB = b""
LIMIT_HUGE = 50 << 20
BOMB_SIZE = 256 << 20
BOMB_READY = threading.Event()


def prepare_bomb():
    global BOMB
    BOMB = make_bomb(BOMB_SIZE)
    BOMB_READY.set()


def make_bomb(size):
    """size zero bytes gzipped (a thousandfold smaller), made in pieces so memory stays small."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = bytes(1 << 20)
    out = [z.compress(piece) for _ in range(size >> 20)]
    out.append(z.flush())
    return b"".join(out)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "feed_server"

    def log_message(self, *args):
        pass

    def send_body(self, body, status=200, headers=()):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        count(self.path, len(body))

    def do_GET(self):
        path = self.path
        count("requests " + path.split("?")[0], 1)
        if path != "/stats":
            with STATS_LOCK:
                STATS["last key"] = self.headers.get("X-Api-Key", "none")
        if path == "/vehicles.pb":
            etag = '"feed-%d"' % (len(FEED))
            if self.headers.get("If-None-Match") == etag:
                count("304", 1)
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_body(FEED, headers=[("ETag", etag), ("Content-Type", "application/x-protobuf"),
                                          ("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT"), ("Age", "3")])
        elif path == "/modified.pb":
            if self.headers.get("If-Modified-Since") == "Tue, 01 Dec 2026 10:00:00 GMT":
                self.send_response(304)
                self.end_headers()
                return
            self.send_body(FEED, headers=[("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT")])
        elif path == "/gzip.pb":
            self.send_body(gzip.compress(FEED), headers=[("Content-Encoding", "gzip")])
        elif path == "/chunked.pb":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(FEED), 97):
                piece = FEED[i:i + 97]
                self.wfile.write(b"%x;ext=1\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\nX-Trailer: yes\r\n\r\n")
        elif path.startswith("/status/"):
            code = int(path[8:])
            self.send_body(b"no feed here\n", status=code)
        elif path == "/slow":
            time.sleep(4)
            self.send_body(FEED)
        elif path == "/stall":
            self.send_response(200)
            self.send_header("Content-Length", str(len(FEED)))
            self.end_headers()
            self.wfile.write(FEED[:10])
            self.wfile.flush()
            time.sleep(4)
        elif path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Length", str(len(FEED)))
            self.end_headers()
            self.wfile.flush()
            for b in FEED:
                self.wfile.write(bytes([b]))
                self.wfile.flush()
                count(path, 1)
                time.sleep(0.2)
        elif path == "/truncated":
            self.send_response(200)
            self.send_header("Content-Length", str(len(FEED)))
            self.end_headers()
            self.wfile.write(FEED[:len(FEED) // 2])
            self.close_connection = True
        elif path == "/truncated-gzip":
            body = gzip.compress(FEED)[:-12]
            self.send_body(body, headers=[("Content-Encoding", "gzip")])
        elif path == "/garbage":
            self.wfile.write(b"\x00\x17\x03garbage that is not HTTP\r\n\r\n")
            self.close_connection = True
        elif path == "/garbage-feed":
            self.send_body(b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" + b"nonsense" * 20)
        elif path == "/huge-chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            piece = bytes(64 << 10)
            sent = 0
            try:
                while sent < LIMIT_HUGE:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    sent += len(piece)
                    count(path, len(piece))
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            self.close_connection = True
        elif path == "/bomb":
            BOMB_READY.wait()
            try:
                self.send_body(BOMB, headers=[("Content-Encoding", "gzip")])
            except OSError:
                pass
        elif path == "/loop/a":
            self.send_body(b"", status=302, headers=[("Location", "/loop/b")])
        elif path == "/loop/b":
            self.send_body(b"", status=302, headers=[("Location", "https://localhost:%d/loop/a" % self.server.server_port)])
        elif path.startswith("/hop/"):
            n = int(path[5:])
            # Relative and absolute Locations in turn.
            target = "/vehicles.pb" if n == 0 else "%d" % (n - 1) if n % 2 else "/hop/%d" % (n - 1)
            self.send_body(b"", status=307, headers=[("Location", target)])
        elif path == "/elsewhere":
            self.send_body(b"", status=302, headers=[("Location", "https://127.0.0.1:%d/echo-key" % self.server.server_port)])
        elif path == "/echo-key":
            self.send_body(self.headers.get("X-Api-Key", "none").encode())
        elif path.startswith("/files/") and "/" not in path[len("/files/"):] and not path.endswith("/files/"):
            # What a test wrote to DIR/files, changed between fetches; an ETag from its bytes.
            try:
                with open(os.path.join(DIR, "files", path[len("/files/"):]), "rb") as f:
                    body = f.read()
            except OSError:
                self.send_body(b"not found\n", status=404)
                return
            etag = '"%08x-%d"' % (zlib.crc32(body), len(body))
            if self.headers.get("If-None-Match") == etag:
                count("304", 1)
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_body(body, headers=[("ETag", etag)])
        elif path == "/stats":
            with STATS_LOCK:
                body = json.dumps(STATS).encode()
            self.send_body(body)
        elif path == "/close":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        else:
            self.send_body(b"not found\n", status=404)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    context = None

    def finish_request(self, request, client_address):
        # In the connection's own thread: a silent client stalls only this one.
        if self.context is not None:
            request.settimeout(10)
            try:
                request = self.context.wrap_socket(request, server_side=True)
            except (OSError, ssl.SSLError):
                return
            request.settimeout(None)
        self.RequestHandlerClass(request, client_address, self)

    def handle_error(self, request, client_address):
        pass


class Proxy(http.server.BaseHTTPRequestHandler):
    """An HTTP proxy that tunnels CONNECT to 127.0.0.1 and refuses every other port it is not
    told of (403), as a site's proxy refuses what it does not allow; it never sees inside."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        count("proxy CONNECT " + self.path, 1)
        if host not in ("localhost", "127.0.0.1") or int(port) not in ALLOWED:
            self.send_response(403, "Forbidden by the test proxy")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        upstream = socket.create_connection(("127.0.0.1", int(port)))
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        client = self.connection

        def pump(a, b):
            try:
                while True:
                    data = a.recv(65536)
                    if not data:
                        break
                    b.sendall(data)
            except OSError:
                pass
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        t = threading.Thread(target=pump, args=(upstream, client), daemon=True)
        t.start()
        pump(client, upstream)
        t.join(10)
        self.close_connection = True

    def do_GET(self):
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()


ALLOWED = set()


def serve(port, cert):
    server = Server(("127.0.0.1", port), Handler)
    if cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(DIR, cert + ".pem"), os.path.join(DIR, cert + ".key"))
        server.context = context
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_port


def main():
    global FEED
    if not os.path.exists(os.path.join(DIR, "ca.pem")):
        make_certificates()
    FEED = make_feed()
    # Made in the background: a second or two of deflating that no other test should wait for.
    threading.Thread(target=prepare_bomb, daemon=True).start()
    with open(os.path.join(DIR, "vehicles.pb"), "wb") as f:
        f.write(FEED)
    wanted = [int(p) for p in sys.argv[2].split(",")] if len(sys.argv) > 2 else [0, 0, 0, 0]
    ports = {}
    for (name, cert), port in zip([("good", "good"), ("wrong", "wrong"), ("expired", "expired"), ("plain", None)], wanted):
        ports[name] = serve(port, cert)
    ALLOWED.update([ports["good"], ports["plain"]])
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", wanted[4] if len(wanted) > 4 else 0), Proxy)
    proxy.daemon_threads = True
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    ports["proxy"] = proxy.server_port
    ports["pid"] = os.getpid()
    with open(os.path.join(DIR, "ports.json.tmp"), "w") as f:
        json.dump(ports, f)
    os.rename(os.path.join(DIR, "ports.json.tmp"), os.path.join(DIR, "ports.json"))
    while True:
        time.sleep(3600)


main()
