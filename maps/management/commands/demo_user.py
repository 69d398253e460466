from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = ("Create the demo / demo user for a local studio, unless it exists: an ordinary designer, not an "
            "administrator (make one with createsuperuser).")

    def handle(self, *args, **options):
        User = get_user_model()
        demo = User.objects.filter(username="demo").first()
        if demo is None:
            User.objects.create_user("demo", "demo@localhost", "demo")
            self.stdout.write("created the user demo (password demo)")
        elif demo.is_superuser or demo.is_staff:
            demo.is_superuser = demo.is_staff = False
            demo.save(update_fields=["is_superuser", "is_staff"])
            self.stdout.write("the demo user is no longer an administrator (make one with createsuperuser)")
