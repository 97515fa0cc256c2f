from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "claire.accounts"
    label = "accounts"
    verbose_name = "Accounts"
