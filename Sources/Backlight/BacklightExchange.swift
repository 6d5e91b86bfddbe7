import Syscall

/// One round with the hardware, asked by the loop and done on a worker thread: find the backlight
/// (it may appear late, when its driver loads after the daemon starts), read the light sensor,
/// write a level. Sysfs attributes of I²C sensors and panels can take milliseconds to answer, and
/// a frame must never wait for them.
public struct BacklightRequest: Sendable {
    /// `[display] backlight`: a name, or nil for the first.
    public var backlight: String?
    /// Whether to read the light sensor, and which (nil: the first).
    public var readSensor: Bool
    public var sensor: String?
    /// A level to write, in whole percent; nil: nothing to write.
    public var percent: Int?

    public init(backlight: String?, readSensor: Bool, sensor: String?, percent: Int?) {
        self.backlight = backlight
        self.readSensor = readSensor
        self.sensor = sensor
        self.percent = percent
    }
}

/// What came of a request.
public struct BacklightAnswer: Sendable {
    /// The backlight found, or why none can be used.
    public var device: Result<BacklightDevice, BacklightProblem>
    /// The sensor's name and its light in lux, or why not; nil: not asked.
    public var light: Result<SensorReading, BacklightProblem>?
    /// The level written, or why it could not be; nil: nothing was to be written (or no device).
    public var written: Result<Int, BacklightProblem>?

    public struct SensorReading: Sendable, Equatable {
        public var sensor: String
        public var lux: Double
    }

    /// Does the request against `sysfs`, now, on the calling thread.
    public static func exchange(_ request: BacklightRequest, sysfs: Sysfs) -> BacklightAnswer {
        let device: Result<BacklightDevice, BacklightProblem>
        do { device = .success(try BacklightDevice.find(request.backlight, in: sysfs)) } catch { device = .failure(error) }
        var answer = BacklightAnswer(device: device)
        if request.readSensor {
            do {
                let sensor = try LightSensor.find(request.sensor, in: sysfs)
                answer.light = .success(SensorReading(sensor: sensor.name, lux: try sensor.lux()))
            } catch {
                answer.light = .failure(error)
            }
        }
        if let percent = request.percent, case .success(let d) = device {
            do {
                try d.write(percent: percent)
                answer.written = .success(percent)
            } catch {
                answer.written = .failure(BacklightProblem(error))
            }
        }
        return answer
    }
}

/// Where the loop's rounds with the hardware go: a worker thread on a board; in tests on virtual
/// time, the calling thread.
public protocol BacklightPort: AnyObject {
    /// Queues `request`; false when it cannot be (the port is closed).
    func submit(_ request: BacklightRequest) -> Bool
    /// The answers that came back since the last call, oldest first.
    func takeAnswers() -> [BacklightAnswer]
}

/// The thread the exchanges run on, started when the backlight is first driven, and the answers
/// on their way back; the loop collects them at its next look (once a second), so it polls no
/// descriptor for them. Never closed: a sensor whose bus hangs must not hold up a stop; let go,
/// the thread ends after its job.
public final class BacklightWorker: BacklightPort, Sendable {
    private let worker: WorkerThread
    private let answers: ResultQueue<BacklightAnswer>
    public let sysfs: Sysfs

    public init(sysfs: Sysfs) throws(SyscallError) {
        self.sysfs = sysfs
        answers = try ResultQueue(name: "backlight answers")
        worker = try WorkerThread(name: "backlight")
    }

    public func submit(_ request: BacklightRequest) -> Bool {
        let sysfs = sysfs, answers = answers
        do {
            try worker.submit({ BacklightAnswer.exchange(request, sysfs: sysfs) }, replyingTo: answers)
            return true
        } catch {
            return false
        }
    }

    public func takeAnswers() -> [BacklightAnswer] { answers.takeResults() }
}
