// The kernel chooser of a PTX module (issue 25 item 3): a list with search, not a message box with a
// button per kernel (for a module with 10,000 entries it never appeared).
#include "kernel_chooser.hpp"

#include <catch2/catch.hpp>

#include <QLineEdit>
#include <QListView>
#include <QTest>
#include <QTimer>

using namespace layoutscope::views;

namespace {
QStringList kernels(int n) {
    QStringList out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) out << QString("kernel_%1(float*, int)").arg(i);
    return out;
}
} // namespace

TEST_CASE("The kernel chooser lists 10,000 kernels and finds one by search", "[views][gui][ptx]") {
    const QStringList labels = kernels(10000);
    KernelChooser dlg(nullptr, "m.ptx has 10000 kernels. Which one becomes a scenario?", labels);
    dlg.show();
    REQUIRE(QTest::qWaitForWindowExposed(&dlg));
    CHECK(dlg.shownCount() == 10000);
    CHECK(dlg.chosen() == 0); // the first kernel is current
    SECTION("typing in the search field filters; the first match is current") {
        QTest::keyClicks(dlg.searchField(), "KERNEL_9999(");
        CHECK(dlg.shownCount() == 1);
        CHECK(dlg.chosen() == 9999);
    }
    SECTION("a part of a name matches every kernel that contains it") {
        dlg.setFilter("_123");
        // kernel_123, kernel_1230..1239: hand-counted
        CHECK(dlg.shownCount() == 11);
        CHECK(dlg.chosen() == 123);
    }
    SECTION("nothing matches: nothing is chosen") {
        dlg.setFilter("no such kernel");
        CHECK(dlg.shownCount() == 0);
        CHECK(dlg.chosen() == -1);
    }
    SECTION("the dialog fits on screen: a list, not a button per kernel") {
        CHECK(dlg.height() <= 800);
        CHECK(dlg.findChildren<QListView*>().size() == 1);
    }
}

TEST_CASE("Choosing a kernel: Enter accepts the match, Cancel picks none", "[views][gui][ptx]") {
    const QStringList labels = kernels(50);
    SECTION("search, then Enter") {
        KernelChooser dlg(nullptr, "?", labels);
        QTimer::singleShot(0, &dlg, [&] {
            QTest::keyClicks(dlg.searchField(), "kernel_42");
            QTest::keyClick(dlg.searchField(), Qt::Key_Return);
        });
        CHECK(dlg.exec() == QDialog::Accepted);
        CHECK(dlg.chosen() == 42);
    }
    SECTION("Escape") {
        KernelChooser dlg(nullptr, "?", labels);
        QTimer::singleShot(0, &dlg, [&] { QTest::keyClick(&dlg, Qt::Key_Escape); });
        CHECK(dlg.exec() == QDialog::Rejected);
    }
}
