# Remote consent is the user's own decision: it moves from billing's AI policy row to the
# user (claire.accounts.consent). Each policy row's value is copied to its user first.

from django.db import migrations
from django.db.models import Exists, OuterRef, Subquery


def consent_to_users(apps, schema_editor):
    AiPolicy = apps.get_model("billing", "AiPolicy")
    User = apps.get_model("accounts", "User")
    policies = AiPolicy.objects.filter(user=OuterRef("pk"))
    User.objects.filter(pk__in=AiPolicy.objects.values("user")).update(
        remote_consent=Subquery(policies.values("has_remote_consent")[:1])
    )


def consent_to_policies(apps, schema_editor):
    AiPolicy = apps.get_model("billing", "AiPolicy")
    User = apps.get_model("accounts", "User")
    consenting = User.objects.filter(pk=OuterRef("user"), remote_consent=True)
    AiPolicy.objects.update(has_remote_consent=Exists(consenting))


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_user_remote_consent'),
        ('billing', '0003_seed_local_price_book'),
    ]

    operations = [
        migrations.RunPython(consent_to_users, consent_to_policies),
        migrations.RemoveField(
            model_name='aipolicy',
            name='has_remote_consent',
        ),
    ]
