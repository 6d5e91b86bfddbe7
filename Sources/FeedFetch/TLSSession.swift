import COpenSSL
import Glibc
import Syscall

/// The CAs certificates are checked against: `caFile` alone when given (a private CA, a pinned
/// one), else the system's store, /etc/ssl/certs (Debian's ca-certificates). TLS 1.2 at least.
final class TLSContext {
    let context: OpaquePointer

    static let systemCertificates = "/etc/ssl/certs"

    init(caFile: String?, url: String) throws(FetchError) {
        if let caFile {
            // Said in the C library's words: OpenSSL's for a missing file is "system lib".
            do { try FileDescriptor.openRegularFile(caFile).close() } catch {
                throw FetchError(.setup, url: url, "TLS: cannot load the CA file: \(error.description)")
            }
        }
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw FetchError(.setup, url: url, "TLS: cannot make a context: \(openSSLErrors())")
        }
        context = ctx
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        _ = pulsedot_ssl_ctx_min_tls12(ctx)
        let loaded = caFile.map { SSL_CTX_load_verify_locations(ctx, $0, nil) }
            ?? SSL_CTX_load_verify_locations(ctx, nil, Self.systemCertificates)
        guard loaded == 1 else {
            let source = caFile.map { "the CA file \($0)" } ?? "the system certificates in \(Self.systemCertificates)"
            throw FetchError(.setup, url: url, "TLS: cannot load \(source): \(openSSLErrors())")
        }
    }

    deinit { SSL_CTX_free(context) }
}

/// One TLS client session over memory buffers: what it writes is taken with `drain` and sent by
/// the caller, what arrives is given with `feed`. The host's name (or IP address) is sent as SNI
/// where it is a name and checked against the certificate's subject alternative names.
final class TLSSession {
    enum Step {
        case done
        case wantRead
        case failed(String)
    }

    enum Read {
        case data(Int)
        case wantRead
        /// close_notify: the server ended the stream properly.
        case closed
        case failed(String)
    }

    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer

    init(context: TLSContext, host: String, url: String) throws(FetchError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context), let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            throw FetchError(.setup, url: url, "TLS: cannot make a session: \(openSSLErrors())")
        }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        // An empty incoming buffer means "more to come", not the end.
        _ = pulsedot_bio_set_mem_eof_return(incoming, -1)
        SSL_set_bio(ssl, incoming, outgoing)
        let isAddress = host.contains(":") || host.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
        let named: Int32
        if isAddress {
            // RFC 6066: no SNI for an address; the certificate must carry it as an IP SAN.
            named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            _ = pulsedot_ssl_set_server_name(ssl, host)
            named = SSL_set1_host(ssl, host)
        }
        guard named == 1 else { throw FetchError(.setup, url: url, "TLS: cannot set the host to verify: \(openSSLErrors())") }
        SSL_set_connect_state(ssl)
    }

    deinit { SSL_free(ssl) }

    func handshake() -> Step {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .done }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return .wantRead }
        let verified = SSL_get_verify_result(ssl)
        if verified != X509_V_OK {
            return .failed("certificate refused: \(String(cString: X509_verify_cert_error_string(verified)))")
        }
        return .failed("TLS handshake failed: \(openSSLErrors())")
    }

    func write(_ bytes: [UInt8]) {
        // A memory buffer takes everything: SSL_write does not come back short.
        bytes.withUnsafeBytes { b in _ = SSL_write(ssl, b.baseAddress, Int32(b.count)) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        ERR_clear_error()
        let n = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { return .data(Int(n)) }
        let code = SSL_get_error(ssl, n)
        if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return .wantRead }
        if code == SSL_ERROR_ZERO_RETURN { return .closed }
        return .failed("TLS read failed: \(openSSLErrors())")
    }

    func feed(_ bytes: UnsafeRawBufferPointer) {
        _ = BIO_write(incoming, bytes.baseAddress, Int32(bytes.count))
    }

    /// What the session has written since the last call, to be sent.
    func drain() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: pending)
        let n = out.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
        out.removeLast(out.count - max(0, Int(n)))
        return out
    }
}

/// OpenSSL's queued errors of this thread as one line, oldest first (its reason strings only:
/// they name the failure without the library's internal codes).
func openSSLErrors() -> String {
    var parts: [String] = []
    while true {
        let code = ERR_get_error()
        if code == 0 { break }
        if let reason = ERR_reason_error_string(code) { parts.append(String(cString: reason)) } else { parts.append("error \(code)") }
    }
    return parts.isEmpty ? "no detail from OpenSSL" : parts.joined(separator: "; ")
}
