import XCTest

/// Callgrind's profile read as `HeapCount` reads it for a static program: a name given once and
/// referred to by its id afterwards, calls summed over every caller, only allocating functions.
final class HeapCountTests: XCTestCase {
    func testCallsOfAllocatingFunctionsAreSummedOverCallersAndCompressedNames() {
        let profile = """
        fn=(1) main
        0 5
        cfn=(2) malloc
        calls=3 0
        0 40
        cfn=(3) free
        calls=2 0
        0 10
        fn=(4) draw
        cfn=(2)
        calls=4 0
        0 60
        cfn=(5) _int_malloc
        calls=9 0
        0 30
        fn=(6) worker
        cfn=(7) posix_memalign
        calls=1 0
        0 8
        cfn=(8) __libc_calloc
        calls=2 0
        0 8
        fn=(2)
        cfn=(5)
        calls=7 0
        0 20
        """
        // malloc 3 + 4, posix_memalign 1, __libc_calloc 2; free and glibc's internal _int_malloc are not entry points.
        XCTAssertEqual(HeapCount.callsOfAllocating(in: profile), 10)
    }

    func testAProfileWithoutAllocationsCountsNone() {
        XCTAssertEqual(HeapCount.callsOfAllocating(in: "fn=(1) main\ncfn=(2) write\ncalls=5 0\n0 1\n"), 0)
    }
}
