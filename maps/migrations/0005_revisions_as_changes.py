# Revisions store what they changed, with a snapshot of the whole map every so often; the map row no longer holds
# the document. Every existing revision held the whole map compressed: each becomes a snapshot as it is.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('maps', '0004_batch_validation_moved'),
    ]

    operations = [
        migrations.RenameField(model_name='maprevision', old_name='packed', new_name='snapshot'),
        migrations.AlterField(
            model_name='maprevision',
            name='snapshot',
            field=models.BinaryField(blank=True, null=True,
                                     help_text='The whole document: its JSON text, zlib-compressed (every so often).'),
        ),
        migrations.AddField(
            model_name='maprevision',
            name='changes',
            field=models.JSONField(blank=True, null=True, help_text='What changed since the revision before.'),
        ),
        migrations.RemoveField(model_name='map', name='document'),
        migrations.AlterField(model_name='map', name='content_hash',
                              field=models.CharField(help_text='sha256 of the exported file.', max_length=64)),
        migrations.AlterField(model_name='map', name='published',
                              field=models.BooleanField(default=False,
                                                        help_text='Published documents can be read by everyone.')),
    ]
