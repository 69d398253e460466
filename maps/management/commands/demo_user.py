from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo / demo superuser for a local studio, unless it exists."

    def handle(self, *args, **options):
        User = get_user_model()
        if User.objects.filter(username="demo").exists():
            return
        User.objects.create_superuser("demo", "demo@localhost", "demo")
        self.stdout.write("created the superuser demo (password demo)")
