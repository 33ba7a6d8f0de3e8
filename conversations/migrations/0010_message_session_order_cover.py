"""A covering index of each session's searchable messages in order (search._neighbourhood)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('conversations', '0009_message_visibility'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='message',
            index=models.Index(condition=models.Q(('searchable', True)), fields=['session', 'created_at', 'id'], include=('user',), name='message_session_order_cover'),
        ),
    ]
