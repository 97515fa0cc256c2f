"""The built-in plugin and its capabilities (re-runnable: existing rows are left alone)."""

from django.db import migrations


def seed_builtin_capabilities(apps, schema_editor):
    from proposals.registry import BUILTIN_PLUGIN

    Plugin = apps.get_model("proposals", "Plugin")
    Capability = apps.get_model("proposals", "Capability")
    plugin, _ = Plugin.objects.get_or_create(
        key=BUILTIN_PLUGIN.key,
        defaults={
            "name": BUILTIN_PLUGIN.name,
            "version": BUILTIN_PLUGIN.version,
            "is_builtin": True,
            "data_policy": BUILTIN_PLUGIN.data_policy,
            "manifest": BUILTIN_PLUGIN.manifest(),
        },
    )
    for spec in BUILTIN_PLUGIN.capabilities:
        Capability.objects.get_or_create(
            key=spec.key,
            defaults={
                "plugin": plugin,
                "kind": spec.kind,
                "label": spec.label,
                "description": spec.description,
                "requires_approval": spec.requires_approval,
                "is_granted_by_default": spec.is_granted_by_default,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("proposals", "0001_capabilities_and_proposals")]

    operations = [migrations.RunPython(seed_builtin_capabilities, migrations.RunPython.noop)]
