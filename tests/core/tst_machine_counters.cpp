// Machine-wide counters a round records beside its own: TLB shootdowns from /proc/interrupts,
// and the time it began.
// Unmapping memory that another running thread of the process may have cached translations
// for makes the kernel interrupt that thread's CPU: the count grows, and a round's sample
// carries the difference. Where the kernel flushes the other CPU by a hypervisor's hypercall
// instead (the line stays at 0), there is no count at all, never a 0 that says "none".
#include "platform.h" // the core's platform layer: tlbShootdowns(), tlbInterruptCount()
#include "readscope/runner.h"
#include "test_file.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <optional>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <thread>

using namespace readscope;

class TestMachineCounters : public QObject {
    Q_OBJECT
private slots:
    void aCountOnlyWhereUnmapsSeenByAnotherCpuMoveTheLine() {
        const auto before = platform::tlbInterruptCount();
        if (!before)
            QSKIP("this system has no TLB line in /proc/interrupts");
        cpu_set_t usable;
        if (pthread_getaffinity_np(pthread_self(), sizeof usable, &usable) != 0 ||
            CPU_COUNT(&usable) < 2 || !CPU_ISSET(0, &usable) || !CPU_ISSET(1, &usable))
            QSKIP("this process may not use CPUs 0 and 1: no other CPU to interrupt");
        // Each thread on a CPU of its own, so that the spinner is running elsewhere while the
        // unmaps happen (on a busy machine the scheduler may otherwise share one CPU between
        // them, and a CPU that is not running the process is not interrupted); the unmaps go
        // on until the count moves, for at most two seconds.
        auto pin = [](int cpu) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
        };
        cpu_set_t was;
        pthread_getaffinity_np(pthread_self(), sizeof was, &was);
        std::atomic<std::uint64_t> spins{0};
        // Stopped and joined however the test leaves, a failed check's return included.
        std::jthread other([&](std::stop_token stop) { // keeps the address space live elsewhere
            pin(1);
            while (!stop.stop_requested())
                spins.fetch_add(1, std::memory_order_relaxed);
        });
        pin(0);
        while (spins.load() == 0)
            std::this_thread::yield();
        QElapsedTimer clock;
        clock.start();
        int unmaps = 0;
        std::optional<std::uint64_t> after;
        do {
            for (int i = 0; i < 500; ++i, ++unmaps) {
                void* p = ::mmap(nullptr, 64 << 10, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                QVERIFY(p != MAP_FAILED);
                static_cast<volatile char*>(p)[0] = 1;
                ::munmap(p, 64 << 10);
            }
            after = platform::tlbInterruptCount();
            QVERIFY(after);
        } while (*after == *before && clock.elapsed() < 2000);
        other.request_stop();
        pthread_setaffinity_np(pthread_self(), sizeof was, &was);
        qInfo("TLB line over %d munmaps with a second thread running: +%llu", unmaps,
              static_cast<unsigned long long>(*after - *before));
        const bool moved = *after > *before;
        // Counted exactly where the line counts; the reason given exactly where it does not.
        QCOMPARE(platform::tlbShootdowns().has_value(), moved);
        QCOMPARE(platform::shootdownsUncountedReason().empty(), moved);
    }

    // Every measured round carries the machine's count while it ran, where there is one.
    void roundsCarryTheCount() {
        testing::TestFile file(4 << 20);
        Plan plan;
        plan.file = file.path();
        plan.strategies = {"mmap-touch"};
        plan.sizes = {64 << 10};
        plan.rounds = 3;
        plan.threads = 2;
        struct : RunSink {
        } sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const bool counted = platform::tlbShootdowns().has_value();
        // A mapping run where nothing is counted says so with its figures.
        const auto why = platform::shootdownsUncountedReason();
        const bool kept = std::any_of(doc->notes.begin(), doc->notes.end(), [&](const auto& n) {
            const auto* said = n.template as<SaidAsIs>();
            return said && said->text == why;
        });
        QCOMPARE(kept, !why.empty());
        double last = 0;
        for (const Sample& s : doc->cells.at(0).samples) {
            QCOMPARE(s.tlbShootdowns.has_value(), counted);
            // And when each round began, in order: the over-time series.
            QVERIFY(s.startedAt && *s.startedAt > last);
            last = *s.startedAt;
        }
    }
};

QTEST_GUILESS_MAIN(TestMachineCounters)
#include "tst_machine_counters.moc"
