// Machine-wide counters a round records beside its own: TLB shootdowns from /proc/interrupts.
// Unmapping memory that another running thread of the process may have cached translations
// for makes the kernel interrupt that thread's CPU: the count grows, and a round's sample
// carries the difference.
#include "platform.h" // the core's platform layer: tlbShootdowns()
#include "readscope/runner.h"
#include "test_file.h"

#include <QTest>

#include <atomic>
#include <sys/mman.h>
#include <thread>

using namespace readscope;

class TestMachineCounters : public QObject {
    Q_OBJECT
private slots:
    void unmapsSeenByAnotherCpuAreCounted() {
        const auto before = platform::tlbShootdowns();
        if (!before)
            QSKIP("this system has no TLB line in /proc/interrupts");
        if (std::thread::hardware_concurrency() < 2)
            QSKIP("one CPU: no other CPU to interrupt");
        std::atomic<bool> done{false};
        std::atomic<std::uint64_t> spins{0};
        std::jthread other([&] { // keeps the process's address space live on another CPU
            while (!done.load(std::memory_order_relaxed))
                spins.fetch_add(1, std::memory_order_relaxed);
        });
        while (spins.load() == 0)
            std::this_thread::yield();
        for (int i = 0; i < 2000; ++i) {
            void* p = ::mmap(nullptr, 64 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                             -1, 0);
            QVERIFY(p != MAP_FAILED);
            static_cast<volatile char*>(p)[0] = 1;
            ::munmap(p, 64 << 10);
        }
        done = true;
        const auto after = platform::tlbShootdowns();
        QVERIFY(after);
        qInfo("TLB shootdowns over 2000 munmaps with a second thread running: %llu",
              static_cast<unsigned long long>(*after - *before));
        QVERIFY(*after > *before);
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
        for (const Sample& s : doc->cells.at(0).samples)
            QCOMPARE(s.tlbShootdowns.has_value(), counted);
    }
};

QTEST_GUILESS_MAIN(TestMachineCounters)
#include "tst_machine_counters.moc"
