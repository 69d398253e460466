# The batch validation models moved here from maps; their tables (maps_batchvalidation, maps_batchfile) stay
# as they are, so this migration only tells Django's state where the models now live.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('jobs', '0003_result_in_file'),
        ('maps', '0003_merge_harden_checks'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='BatchValidation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(help_text="The uploaded file's name.", max_length=255)),
                        ('upload', models.FileField(max_length=255, upload_to='validations/%Y/%m/')),
                        ('size', models.PositiveBigIntegerField(default=0)),
                        ('files_total', models.PositiveIntegerField(default=0, help_text='Map files found in the upload (once read).')),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('job', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='jobs.job')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='validations', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'maps_batchvalidation',
                        'ordering': ['-created', '-id'],
                        'indexes': [models.Index(fields=['owner', '-created'], name='maps_batchv_owner_i_b891d4_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='BatchFile',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('index', models.PositiveIntegerField(help_text="Its place among the upload's files.")),
                        ('name', models.CharField(max_length=500)),
                        ('source_format', models.CharField(blank=True, max_length=32)),
                        ('verdict', models.CharField(choices=[('ok', 'Ok'), ('warnings', 'Warnings'), ('invalid', 'Invalid')], max_length=16)),
                        ('errors', models.PositiveIntegerField(default=0)),
                        ('warnings', models.PositiveIntegerField(default=0)),
                        ('findings', models.JSONField(default=list)),
                        ('document', models.JSONField(blank=True, help_text='The converted map, when it could be read.', null=True)),
                        ('map', models.ForeignKey(blank=True, help_text="The owner's map made from this file, once opened.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='maps.map')),
                        ('batch', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='files', to='validations.batchvalidation')),
                    ],
                    options={
                        'db_table': 'maps_batchfile',
                        'ordering': ['batch', 'index'],
                        'constraints': [models.UniqueConstraint(fields=('batch', 'index'), name='unique_batch_file_index')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
