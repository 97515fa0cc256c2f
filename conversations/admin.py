from django.contrib import admin

from conversations.models import (
    Chat,
    ChatParticipant,
    Message,
    Person,
    PersonIdentity,
    PlatformConnection,
)


@admin.register(PlatformConnection)
class PlatformConnectionAdmin(admin.ModelAdmin[PlatformConnection]):
    list_display = ("user", "platform", "display_name", "external_account_id", "created_at")
    list_filter = ("platform",)
    search_fields = ("user__email", "display_name", "external_account_id")
    raw_id_fields = ("user",)


class ChatParticipantInline(admin.TabularInline[ChatParticipant, Chat]):
    model = ChatParticipant
    extra = 0
    raw_id_fields = ("person",)


@admin.register(Chat)
class ChatAdmin(admin.ModelAdmin[Chat]):
    list_display = ("title", "user", "platform", "kind", "is_excluded_from_ai", "last_message_at")
    list_filter = ("platform", "kind", "is_excluded_from_ai")
    search_fields = ("title", "platform_chat_id", "user__email")
    raw_id_fields = ("user", "connection")
    inlines = [ChatParticipantInline]


class PersonIdentityInline(admin.TabularInline[PersonIdentity, Person]):
    model = PersonIdentity
    extra = 0
    fields = ("platform", "kind", "value")


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin[Person]):
    list_display = ("display_name", "user", "created_at")
    search_fields = ("display_name", "user__email", "identities__value")
    raw_id_fields = ("user",)
    inlines = [PersonIdentityInline]


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin[Message]):
    list_display = ("sent_at", "chat", "sender_display", "kind", "short_text", "deleted_at")
    list_filter = ("kind", "chat__platform", ("deleted_at", admin.EmptyFieldListFilter))
    search_fields = ("platform_message_id", "user__email")
    raw_id_fields = ("user", "chat", "sender_person", "reply_to")
    date_hierarchy = "sent_at"
    list_select_related = ("chat", "sender_person")
    show_full_result_count = False

    @admin.display(description="sender")
    def sender_display(self, message: Message) -> str:
        if message.is_from_self:
            return "(self)"
        return message.sender_person.display_name if message.sender_person else message.sender_name

    @admin.display(description="text")
    def short_text(self, message: Message) -> str:
        return message.text[:80]
