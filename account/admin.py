from django.contrib import admin

from account.auth import AdminLoginForm

admin.site.login_form = AdminLoginForm  # the same failed-login budget as the site's login
