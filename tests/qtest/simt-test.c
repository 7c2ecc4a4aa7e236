// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QTest for the simt accelerator, what needs a QEMU of its own: property
 * validation and help, the QOM tree read in full, hot-unplug.  The
 * register-level tests run on the qgraph (simt-qos-test.c).
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"

/* Run QEMU directly (no qtest protocol) and collect how it ended. */
static void run_qemu(const char *args, int *status, char **out, char **err)
{
    const char *qemu = g_getenv("QTEST_QEMU_BINARY");
    g_autofree char *cmd = NULL;
    g_auto(GStrv) argv = NULL;
    GError *error = NULL;

    g_assert_nonnull(qemu);
    cmd = g_strdup_printf("%s -M q35 -nodefaults -display none %s",
                          qemu, args);
    g_assert_true(g_shell_parse_argv(cmd, NULL, &argv, &error));
    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, status, &error));
}

static void test_bad_properties(void)
{
    static const struct {
        const char *props;
        const char *message;
    } cases[] = {
        { "sm-count=0", "sm-count must be between" },
        { "sm-count=100000", "sm-count must be between" },
        { "vram-size=3M", "vram-size must be a power of two" },
        { "vram-size=512K", "vram-size must be a power of two" },
        { "vram-size=8G", "vram-size must be a power of two" },
        { "threads=0", "threads must be between 1 and 64" },
        { "threads=65", "threads must be between 1 and 64" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        g_autofree char *args = g_strdup_printf("-device simt,%s",
                                                cases[i].props);
        g_autofree char *out = NULL, *err = NULL;
        int status;

        run_qemu(args, &status, &out, &err);
        /* An orderly exit with an error, never a signal. */
        g_assert_true(WIFEXITED(status));
        g_assert_cmpint(WEXITSTATUS(status), !=, 0);
        g_assert_nonnull(strstr(err, cases[i].message));
    }
}

static void test_property_help(void)
{
    g_autofree char *out = NULL, *err = NULL;
    int status;

    run_qemu("-device simt,help", &status, &out, &err);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, 0);
    g_assert_nonnull(strstr(out, "sm-count"));
    g_assert_nonnull(strstr(out, "vram-size"));
    g_assert_nonnull(strstr(out, "threads"));
}

/*
 * qom-get every property of the object at @path and of its children,
 * each of which must answer; links are not followed.  Returns how many
 * were read.
 */
static unsigned qom_get_all(QTestState *qts, const char *path)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-list',"
                                 "  'arguments': { 'path': %s } }", path);
    QList *list = qdict_get_qlist(resp, "return");
    QListEntry *entry;
    unsigned n = 0;

    g_assert_nonnull(list);
    QLIST_FOREACH_ENTRY(list, entry) {
        QDict *prop = qobject_to(QDict, qlist_entry_obj(entry));
        const char *name = qdict_get_str(prop, "name");
        const char *type = qdict_get_str(prop, "type");
        QDict *got;

        if (g_str_has_prefix(type, "child<")) {
            g_autofree char *child = g_strdup_printf("%s/%s", path, name);

            n += qom_get_all(qts, child);
            continue;
        }
        if (g_str_has_prefix(type, "link<")) {
            continue;
        }
        got = qtest_qmp(qts, "{ 'execute': 'qom-get',"
                             "  'arguments': { 'path': %s, 'property': %s } }",
                        path, name);
        if (!qdict_haskey(got, "return")) {
            g_error("qom-get %s %s (%s): %s", path, name, type,
                    qdict_get_str(qdict_get_qdict(got, "error"), "desc"));
        }
        qobject_unref(got);
        n++;
    }
    qobject_unref(resp);
    return n;
}

/* QEMU's qom-test walks the machines without the device: here, with it. */
static void test_qom_every_property_readable(void)
{
    QTestState *qts = qtest_init("-M q35 -nodefaults "
                                 "-device simt,id=gpu,sm-count=3");
    QDict *sms;

    /* The device's qdev properties alone are more than 20. */
    g_assert_cmpuint(qom_get_all(qts, "/machine/peripheral/gpu"), >, 20);
    /* And they read back what was set. */
    sms = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': {"
                         "  'path': '/machine/peripheral/gpu',"
                         "  'property': 'sm-count' } }");
    g_assert_cmpint(qdict_get_int(sms, "return"), ==, 3);
    qobject_unref(sms);
    qtest_quit(qts);
}

static bool peripheral_has(QTestState *qts, const char *id)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-list', 'arguments': {"
                                 "  'path': '/machine/peripheral' } }");
    QList *list = qdict_get_qlist(resp, "return");
    QListEntry *entry;
    bool found = false;

    QLIST_FOREACH_ENTRY(list, entry) {
        QDict *prop = qobject_to(QDict, qlist_entry_obj(entry));

        found |= !strcmp(qdict_get_str(prop, "name"), id);
    }
    qobject_unref(resp);
    return found;
}

/*
 * device_del of a device on a PCIe root port, then device_add of a new
 * one on the same port, twice: each unplug ends with DEVICE_DELETED and
 * the device gone from the QOM tree (the guest is not running, so, as in
 * QEMU's device-plug-test, a system reset carries the unplug out), and
 * the device's unrealize leaves nothing behind that a second plug trips
 * on.
 */
static void test_unplug_and_plug_again(void)
{
    QTestState *qts = qtest_init("-M q35 -nodefaults "
                                 "-device pcie-root-port,id=rp1,chassis=1 "
                                 "-device simt,bus=rp1,id=gpu");

    for (int i = 0; i < 2; i++) {
        QDict *ev;

        g_assert_true(peripheral_has(qts, "gpu"));
        qtest_qmp_device_del_send(qts, "gpu");
        qtest_system_reset_nowait(qts);
        for (;;) {
            QDict *data;

            ev = qtest_qmp_eventwait_ref(qts, "DEVICE_DELETED");
            data = qdict_get_qdict(ev, "data");
            if (data && qdict_haskey(data, "device") &&
                !strcmp(qdict_get_str(data, "device"), "gpu")) {
                break;
            }
            qobject_unref(ev);
        }
        qobject_unref(ev);
        g_assert_false(peripheral_has(qts, "gpu"));
        qtest_qmp_device_add(qts, "simt", "gpu", "{ 'bus': 'rp1' }");
    }
    g_assert_true(peripheral_has(qts, "gpu"));
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/simt/bad-properties", test_bad_properties);
    qtest_add_func("/simt/property-help", test_property_help);
    qtest_add_func("/simt/qom/every-property-readable",
                   test_qom_every_property_readable);
    qtest_add_func("/simt/plug/unplug-and-plug-again",
                   test_unplug_and_plug_again);

    return g_test_run();
}
